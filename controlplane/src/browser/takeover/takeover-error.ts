import { AppError } from '../../errors.js';

export type TakeoverErrorCode =
  | 'TAKEOVER_LINK_INVALID'
  | 'TAKEOVER_LINK_EXPIRED'
  | 'TAKEOVER_LINK_USED'
  | 'TAKEOVER_FORBIDDEN'
  | 'TAKEOVER_NOT_ACTIVE'
  | 'TAKEOVER_NOT_FOUND';

const statusOf: Record<TakeoverErrorCode, number> = {
  TAKEOVER_LINK_INVALID: 403,
  TAKEOVER_LINK_EXPIRED: 403,
  TAKEOVER_LINK_USED: 403,
  TAKEOVER_FORBIDDEN: 403,
  TAKEOVER_NOT_ACTIVE: 409,
  TAKEOVER_NOT_FOUND: 404,
};

/** A takeover refused (bad, expired or reused link; wrong tenant; nothing to take over; not a task id). */
export class TakeoverError extends AppError {
  declare readonly code: TakeoverErrorCode;
  constructor(code: TakeoverErrorCode, message: string) {
    super(code, message, { status: statusOf[code] });
    this.name = 'TakeoverError';
  }
}
