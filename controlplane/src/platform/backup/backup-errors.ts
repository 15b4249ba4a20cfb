import { AppError } from '../../errors.js';

export type BackupErrorCode =
  /** The destination of a backup or restore exists and is not empty. */
  | 'BACKUP_TARGET_NOT_EMPTY'
  /** No readable manifest, or one that does not describe a Clawdie backup. */
  | 'BACKUP_INVALID'
  /** A file is missing or its size or sha256 differs from the manifest. */
  | 'BACKUP_DIGEST_MISMATCH'
  /** Made by a build with migrations this one does not know. */
  | 'BACKUP_TOO_NEW'
  /** The snapshot failed its integrity check or its audit head does not fit it. */
  | 'BACKUP_INCONSISTENT'
  /** CLAWDIE_DATABASE_URL: the store is PostgreSQL, which pg_dump backs up, not these file copies. */
  | 'BACKUP_POSTGRES';

/** `clawdie backup` / `clawdie restore` refused or failed; nothing half-written is left behind. */
/**
 * Refuses `clawdie backup` / `restore` on a PostgreSQL store before anything is read or written:
 * the file copies would miss every task, audit row and secret, which live in PostgreSQL.
 */
export function refuseOnPostgres(
  config: { databaseUrl: string | null },
  verb: 'backup' | 'restore',
): void {
  if (!config.databaseUrl) return;
  throw new BackupError(
    'BACKUP_POSTGRES',
    `clawdie ${verb} copies the SQLite data dir, but CLAWDIE_DATABASE_URL points this controlplane at PostgreSQL: ${verb === 'backup' ? 'back the database up with pg_dump and copy the data dir keys' : 'restore the database with pg_restore (or psql) and the data dir keys'} (docs/operations.md, "PostgreSQL")`,
  );
}

export class BackupError extends AppError {
  declare readonly code: BackupErrorCode;
  constructor(code: BackupErrorCode, message: string, cause?: unknown) {
    super(code, message, { status: 409, cause });
    this.name = 'BackupError';
  }
}
