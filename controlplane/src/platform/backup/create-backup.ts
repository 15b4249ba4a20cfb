// `clawdie backup <dest>`: a consistent copy of a data dir, safe while a server runs on it.
// Order matters: keys first (written once), then the audit head record (it lags the database, so
// read before the snapshot it never names a row the snapshot lacks), then the database snapshot
// through SQLite, then exactly the trace files that snapshot names (each is fully written before a
// row names it, and never rewritten). Everything goes into a staging dir renamed into place last.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import type { Config } from '../../config.js';
import { readAuditHead } from '../../governance/audit/audit-head.js';
import { auditHeadPath } from '../../governance/audit/audit-key.js';
import type { ChainHead } from '../../governance/audit/hash-chain.js';
import {
  clearInstances,
  integrityCheck,
  snapshotDatabase,
  snapshotFacts,
  traceReferences,
} from '../store/backup-database.js';
import { DATA_FILE_MODE } from '../store/data-dir-modes.js';
import { verifyAuditAt } from './audit-check.js';
import { BackupError, refuseOnPostgres } from './backup-errors.js';
import { AUDIT_HEAD_FILE, DATABASE_FILE, keyFiles, traceFile } from './backup-layout.js';
import {
  type BackupManifest,
  digestFile,
  MANIFEST_NAME,
  type ManifestFile,
} from './backup-manifest.js';
import { clawdieVersion } from './clawdie-version.js';
import { assertFreshTarget, createStagingDir, type StagingDir } from './staging-dir.js';

type BackupConfig = Pick<
  Config,
  'dataDir' | 'databasePath' | 'databaseUrl' | 'auditKeyFile' | 'secretsKeyFile' | 'auth'
>;

export interface BackupOptions {
  config: BackupConfig;
  /** The new backup directory: absent or empty. */
  destination: string;
  /** One human line per stage (the CLI prints them on stderr). */
  onProgress: (line: string) => void;
}

export interface BackupResult {
  path: string;
  manifest: BackupManifest;
  bytes: number;
}

/** Throws BackupError (destination not empty, inconsistent snapshot) or AppError DATABASE_MISSING. */
export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  const started = performance.now();
  const { config, onProgress } = options;
  refuseOnPostgres(config, 'backup');
  const target = resolve(options.destination);
  assertFreshTarget(target, 'the backup destination');
  if (!existsSync(config.databasePath))
    throw new BackupError('BACKUP_INVALID', `no database at ${config.databasePath} to back up`);
  const staging = createStagingDir(target);
  try {
    const files: ManifestFile[] = [];
    for (const key of keyFiles(config)) {
      if (!existsSync(key.path)) continue;
      files.push({
        ...(await staging.copy(key.path, key.relative)),
        path: key.relative,
        role: key.role,
      });
    }
    const head = copyAuditHead(auditHeadPath(config.auditKeyFile), staging);
    if (head.file) files.push(head.file);
    onProgress(`backup: keys copied (${files.map((file) => file.role).join(', ') || 'none'})`);

    const snapshotStarted = performance.now();
    const database = staging.place(DATABASE_FILE);
    snapshotDatabase(config.databasePath, database);
    const snapshotMs = performance.now() - snapshotStarted;
    clearInstances(database);
    const facts = checkSnapshot(database, head.head);
    const digest = await digestFile(database);
    files.push({ ...digest, path: DATABASE_FILE, role: 'database' });
    onProgress(
      `backup: database snapshot ${megabytes(digest.bytes)} in ${seconds(snapshotMs)} (${facts.tasks} tasks, ${facts.auditRows} audit rows)`,
    );
    const auditVerified = await verifyIfKeyed(database, staging, onProgress);

    const missing = await copyTraces(config.dataDir, database, staging, files, onProgress);
    const manifest: BackupManifest = {
      format: 'clawdie-backup',
      version: 1,
      created_at: new Date().toISOString(),
      versions: {
        clawdie: clawdieVersion(),
        node: process.version,
        sqlite: facts.sqliteVersion,
        schema_migrations: facts.migrations,
      },
      source: { data_dir: config.dataDir, hostname: hostname() },
      database: {
        tasks: facts.tasks,
        tasks_ended: facts.tasksEnded,
        audit_rows: facts.auditRows,
        audit_tail: facts.auditTail,
        audit_head: head.head,
        session_profiles: facts.sessionProfiles,
        secrets: facts.secrets,
        integrity: 'ok',
      },
      audit_verified: auditVerified,
      missing,
      timings_ms: {
        snapshot: Math.round(snapshotMs),
        total: Math.round(performance.now() - started),
      },
      files,
    };
    writeFileSync(join(staging.path, MANIFEST_NAME), `${JSON.stringify(manifest, null, 2)}\n`, {
      mode: DATA_FILE_MODE,
      flag: 'wx',
    });
    staging.publish(target, MANIFEST_NAME);
    const bytes = files.reduce((sum, file) => sum + file.bytes, 0);
    onProgress(
      `backup: done: ${target} (${files.length} files, ${megabytes(bytes)}, ${seconds(performance.now() - started)})`,
    );
    return { path: target, manifest, bytes };
  } catch (error) {
    staging.discard();
    throw error;
  }
}

/**
 * Copies the head record (a fixed-length record rewritten in place) and parses the copy; a read
 * that caught a write half-way does not parse and is read again.
 */
function copyAuditHead(
  source: string,
  staging: StagingDir,
): { head: ChainHead | null; file: ManifestFile | null } {
  if (!existsSync(source)) return { head: null, file: null };
  const copy = staging.place(AUDIT_HEAD_FILE);
  for (let attempt = 1; ; attempt += 1) {
    const bytes = readFileSync(source);
    writeFileSync(copy, bytes, { mode: DATA_FILE_MODE });
    try {
      const head = readAuditHead(copy);
      const file: ManifestFile = {
        path: AUDIT_HEAD_FILE,
        role: 'audit-head',
        bytes: bytes.length,
        sha256: sha256(bytes),
      };
      return { head, file };
    } catch (error) {
      if (attempt >= 5) throw error;
    }
  }
}

function checkSnapshot(database: string, head: ChainHead | null) {
  const integrity = integrityCheck(database);
  if (integrity.join() !== 'ok')
    throw new BackupError('BACKUP_INCONSISTENT', `snapshot integrity: ${integrity.join('; ')}`);
  const facts = snapshotFacts(database);
  if (head && (facts.auditTail?.seq ?? 0) < head.seq) {
    throw new BackupError(
      'BACKUP_INCONSISTENT',
      `the audit head names row ${head.seq} but the snapshot ends at ${facts.auditTail?.seq ?? 0}`,
    );
  }
  return facts;
}

async function verifyIfKeyed(
  database: string,
  staging: StagingDir,
  onProgress: (line: string) => void,
): Promise<boolean> {
  const key = join(staging.path, 'keys', 'audit.key');
  if (!existsSync(key)) {
    onProgress('backup: WARNING: no audit key in this data dir; the audit log cannot be verified');
    return false;
  }
  const result = await verifyAuditAt(database, key);
  onProgress(
    result.ok
      ? `backup: audit log of the snapshot intact (${result.rows} rows, head seq ${result.headSeq})`
      : `backup: WARNING: the audit log of the snapshot is NOT intact: first bad row ${result.firstBad.seq} (${result.firstBad.problem})`,
  );
  return result.ok;
}

/** Copies in flight at once: each ends with an fsync, which is mostly waiting. */
const COPIES_AT_ONCE = 8;

/** Copies the trace files the snapshot names; returns the ones the data dir no longer has. */
async function copyTraces(
  dataDir: string,
  database: string,
  staging: StagingDir,
  files: ManifestFile[],
  onProgress: (line: string) => void,
): Promise<string[]> {
  const references = withArtifacts(dataDir, traceReferences(database));
  const missing: string[] = [];
  let copied = 0;
  const copyOne = async (reference: (typeof references)[number]) => {
    const relative = traceFile(reference.taskId, reference.name);
    const source = join(dataDir, relative);
    if (!existsSync(source)) {
      // A recording exists only once finalised; a screenshot the rows name should be there.
      if (reference.name !== 'recording.mp4') missing.push(relative);
      return;
    }
    files.push({ ...(await staging.copy(source, relative)), path: relative, role: 'trace' });
    copied += 1;
    if (copied % 1000 === 0) onProgress(`backup: trace files ${copied}/${references.length}`);
  };
  for (let start = 0; start < references.length; start += COPIES_AT_ONCE)
    await Promise.all(references.slice(start, start + COPIES_AT_ONCE).map(copyOne));
  onProgress(
    `backup: ${copied} trace files copied${missing.length ? `, ${missing.length} named by the database but missing` : ''}`,
  );
  return missing;
}

/**
 * The references plus each task's downloaded files and their manifest (`artifacts.json`), which
 * live beside the trace but are named by no row.
 */
function withArtifacts(
  dataDir: string,
  references: { taskId: string; name: string }[],
): { taskId: string; name: string }[] {
  const tasks = new Set(references.map((reference) => reference.taskId));
  const artifacts = [...tasks].flatMap((taskId) => {
    const manifest = join(dataDir, traceFile(taskId, 'artifacts.json'));
    if (!existsSync(manifest)) return [];
    const stored = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }[];
    const names = stored.flatMap((artifact) =>
      typeof artifact.name === 'string' && /^[^/\\]+$/.test(artifact.name)
        ? [`artifacts/${artifact.name}`]
        : [],
    );
    return ['artifacts.json', ...names].map((name) => ({ taskId, name }));
  });
  return [...references, ...artifacts];
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
