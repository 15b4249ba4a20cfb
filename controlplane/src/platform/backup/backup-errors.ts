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
  | 'BACKUP_INCONSISTENT';

/** `clawdie backup` / `clawdie restore` refused or failed; nothing half-written is left behind. */
export class BackupError extends AppError {
  declare readonly code: BackupErrorCode;
  constructor(code: BackupErrorCode, message: string, cause?: unknown) {
    super(code, message, { status: 409, cause });
    this.name = 'BackupError';
  }
}
