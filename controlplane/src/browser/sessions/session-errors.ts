import { AppError } from '../../errors.js';

export type SessionErrorCode =
  | 'SESSION_NOT_FOUND'
  | 'SESSION_FORBIDDEN'
  | 'SESSION_UNAVAILABLE'
  | 'SESSION_INVALID'
  | 'SESSION_NO_BROWSER';

/** A session profile operation refused; the message never holds a cookie or storage value. */
export class SessionProfileError extends AppError {
  declare readonly code: SessionErrorCode;
  constructor(code: SessionErrorCode, message: string, status: number, cause?: unknown) {
    super(code, message, { status, cause });
    this.name = 'SessionProfileError';
  }
}
