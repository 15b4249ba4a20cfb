// `clawdie restore <backup>`: into a fresh data dir only. Every digest is checked before anything
// is written; the result is built beside the target and renamed into place; the audit chain of
// the result is then verified with the restored key and head record.
import { chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { copyFile, constants as fsConstants } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Config } from '../../config.js';
import type { AuditVerifyResult } from '../../governance/audit/verify-chain.js';
import { DataDirInUseError } from '../ownership/data-dir-owner.js';
import { findLiveServer } from '../ownership/live-server.js';
import {
  dropStoreIdentity,
  integrityCheck,
  knownMigrations,
  rewriteTracePaths,
} from '../store/backup-database.js';
import { DATA_DIR_MODE, DATA_FILE_MODE } from '../store/data-dir-modes.js';
import { verifyAuditAt } from './audit-check.js';
import { BackupError, refuseOnPostgres } from './backup-errors.js';
import { destinationOf, inside } from './backup-layout.js';
import {
  type BackupManifest,
  digestFile,
  type ManifestFile,
  readManifest,
} from './backup-manifest.js';
import { megabytes, seconds } from './create-backup.js';
import { assertFreshTarget, createStagingDir } from './staging-dir.js';

type RestoreConfig = Pick<
  Config,
  'dataDir' | 'databasePath' | 'databaseUrl' | 'auditKeyFile' | 'secretsKeyFile' | 'auth'
>;

export interface RestoreOptions {
  /** The target's configuration: its data dir (absent or empty) and key file locations. */
  config: RestoreConfig;
  /** The backup directory (with its manifest.json). */
  source: string;
  onProgress: (line: string) => void;
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** The audit verification of the restored data dir (null: the backup holds no audit key). */
  audit: AuditVerifyResult | null;
}

/**
 * Throws BackupError (bad manifest, digest mismatch, target not empty, too new) or
 * DataDirInUseError before writing anything.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const started = performance.now();
  const { config, onProgress } = options;
  refuseOnPostgres(config, 'restore');
  const source = resolve(options.source);
  const manifest = readManifest(source);
  if (manifest.versions.schema_migrations > knownMigrations()) {
    throw new BackupError(
      'BACKUP_TOO_NEW',
      `the backup was made by Clawdie ${manifest.versions.clawdie} with ${manifest.versions.schema_migrations} schema migrations; this build knows ${knownMigrations()}: restore it with that version or newer`,
    );
  }
  await verifyDigests(source, manifest.files, onProgress);
  const live = await findLiveServer(config.databasePath);
  if (live) throw new DataDirInUseError(config.dataDir, live);
  assertFreshTarget(config.dataDir, 'the data directory');
  const placed = manifest.files.map((file) => {
    const destination = destinationOf(file.role, file.path, config);
    return { file, destination, staged: inside(config.dataDir, destination) };
  });
  const outside = placed.filter((entry) => entry.staged === null);
  for (const entry of outside) {
    if (existsSync(entry.destination)) {
      throw new BackupError(
        'BACKUP_TARGET_NOT_EMPTY',
        `${entry.destination} (the ${entry.file.role} the configuration names) already exists`,
      );
    }
  }

  const staging = createStagingDir(config.dataDir);
  const written: string[] = [];
  try {
    for (const entry of placed) {
      if (entry.staged === null) continue;
      const copied = await staging.copy(join(source, entry.file.path), entry.staged);
      if (copied.sha256 !== entry.file.sha256) throw mismatch(entry.file.path, 'changed');
    }
    const database = join(staging.path, inside(config.dataDir, config.databasePath) ?? '');
    rewriteTracePaths(database, join(config.dataDir, 'traces'));
    // Each restore is a store of its own, even two of one backup (a backup drops it too).
    dropStoreIdentity(database);
    const integrity = integrityCheck(database);
    if (integrity.join() !== 'ok')
      throw new BackupError('BACKUP_INCONSISTENT', `integrity: ${integrity.join('; ')}`);
    for (const entry of outside) {
      mkdirSync(dirname(entry.destination), { recursive: true, mode: DATA_DIR_MODE });
      await copyFile(join(source, entry.file.path), entry.destination, fsConstants.COPYFILE_EXCL);
      written.push(entry.destination);
      chmodSync(entry.destination, DATA_FILE_MODE);
    }
    staging.publish(config.dataDir, 'clawdie.db');
  } catch (error) {
    staging.discard();
    for (const path of written) rmSync(path, { force: true });
    throw error;
  }
  onProgress(
    `restore: ${manifest.files.length} files into ${config.dataDir} (${manifest.database.tasks} tasks, ${manifest.database.audit_rows} audit rows, ${seconds(performance.now() - started)})`,
  );
  const audit = manifest.files.some((file) => file.role === 'audit-key')
    ? await verifyAuditAt(config.databasePath, config.auditKeyFile)
    : null;
  return { manifest, audit };
}

/** Size and sha256 of every listed file, before anything is written. */
async function verifyDigests(
  source: string,
  files: ManifestFile[],
  onProgress: (line: string) => void,
): Promise<void> {
  let bytes = 0;
  for (const file of files) {
    const path = join(source, file.path);
    if (!existsSync(path)) throw mismatch(file.path, 'missing');
    const actual = await digestFile(path);
    if (actual.bytes !== file.bytes || actual.sha256 !== file.sha256)
      throw mismatch(file.path, 'differs from the manifest');
    bytes += actual.bytes;
  }
  onProgress(`restore: ${files.length} files (${megabytes(bytes)}) match the manifest`);
}

const mismatch = (path: string, what: string) =>
  new BackupError(
    'BACKUP_DIGEST_MISMATCH',
    `${path} in the backup ${what} (size or sha256): the backup is damaged; nothing was restored`,
  );
