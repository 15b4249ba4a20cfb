import { AppError } from '../../errors.js';

export type AuthErrorCode =
  | 'TOKEN_MISSING'
  | 'TOKEN_INVALID'
  | 'TOKEN_EXPIRED'
  | 'TOKEN_WRONG_AUDIENCE';

/** A request without a usable bearer token: HTTP 401. */
export class AuthError extends AppError {
  declare readonly code: AuthErrorCode;
  constructor(code: AuthErrorCode, message: string, cause?: unknown) {
    super(code, message, { status: 401, cause });
    this.name = 'AuthError';
  }
}

/** A valid token without the scope a route needs: HTTP 403. */
export class ForbiddenError extends AppError {
  declare readonly code: 'SCOPE_MISSING';
  constructor(message: string) {
    super('SCOPE_MISSING', message, { status: 403 });
    this.name = 'ForbiddenError';
  }
}

/** The JWKS file is missing, unreadable or malformed. */
export class KeyFileError extends AppError {
  declare readonly code: 'KEY_FILE_INVALID';
  constructor(message: string, cause?: unknown) {
    super('KEY_FILE_INVALID', message, { status: 500, cause });
    this.name = 'KeyFileError';
  }
}
