// The manifest of a backup directory (`manifest.json`, written last): what it holds, from which
// versions, and the sha256 of every file, which `clawdie restore` checks before writing anything.
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { BackupError } from './backup-errors.js';

export const MANIFEST_NAME = 'manifest.json';

/** What each file of a backup is; the restore puts it where the target's configuration says. */
export const FILE_ROLES = [
  'database',
  'audit-key',
  'audit-head',
  'secrets-key',
  'jwks',
  'trace',
] as const;
export type FileRole = (typeof FILE_ROLES)[number];

/** A backup-relative path: plain segments, no `..`, no absolute path. */
const relativePath = z
  .string()
  .regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/, 'must be a plain relative path')
  .refine((path) => !path.split('/').some((part) => part === '..' || part === '.'), 'no . or ..');

const fileEntry = z.object({
  path: relativePath,
  role: z.enum(FILE_ROLES),
  bytes: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ManifestFile = z.infer<typeof fileEntry>;

const head = z.object({ seq: z.number().int().min(1), hash: z.string() }).nullable();

export const manifestSchema = z.object({
  format: z.literal('clawdie-backup'),
  version: z.literal(1),
  created_at: z.string(),
  versions: z.object({
    clawdie: z.string(),
    node: z.string(),
    sqlite: z.string(),
    schema_migrations: z.number().int().min(0),
  }),
  source: z.object({ data_dir: z.string(), hostname: z.string() }),
  database: z.object({
    tasks: z.number().int().min(0),
    tasks_ended: z.number().int().min(0),
    audit_rows: z.number().int().min(0),
    audit_tail: head,
    /** The head record copied with the key (taken before the snapshot, so never past its end). */
    audit_head: head,
    session_profiles: z.number().int().min(0),
    secrets: z.number().int().min(0),
    integrity: z.literal('ok'),
  }),
  /** `clawdie audit verify` of the backup itself when it was taken. */
  audit_verified: z.boolean(),
  /** Trace files the snapshot names but the data dir no longer had. */
  missing: z.array(z.string()),
  timings_ms: z.object({ snapshot: z.number(), total: z.number() }),
  files: z.array(fileEntry),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

/** Reads and validates `<dir>/manifest.json`; throws BackupError `BACKUP_INVALID` otherwise. */
export function readManifest(dir: string): BackupManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(dir, MANIFEST_NAME), 'utf8'));
  } catch (error) {
    throw new BackupError(
      'BACKUP_INVALID',
      `${dir} is not a complete Clawdie backup (no readable ${MANIFEST_NAME}): ${(error as Error).message}`,
    );
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BackupError(
      'BACKUP_INVALID',
      `${join(dir, MANIFEST_NAME)}: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`,
    );
  }
  const paths = parsed.data.files.map((file) => file.path);
  if (new Set(paths).size !== paths.length)
    throw new BackupError('BACKUP_INVALID', `${join(dir, MANIFEST_NAME)}: a file is listed twice`);
  if (parsed.data.files.filter((file) => file.role === 'database').length !== 1)
    throw new BackupError('BACKUP_INVALID', `${join(dir, MANIFEST_NAME)}: needs one database`);
  return parsed.data;
}

/** sha256 (hex) and size of a file, streamed. */
export async function digestFile(path: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}
