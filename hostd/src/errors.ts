// hostd's domain errors: one class with a code and an HTTP status hint (house-style §3.5).
export type HostdErrorCode =
  | 'CLONE_NOT_FOUND'
  /** No lease header on a per-clone request. */
  | 'LEASE_REQUIRED'
  /** The lease id is unknown (never issued, or forgotten after its retention). */
  | 'LEASE_NOT_FOUND'
  /** The lease id is not the clone's current lease (a stale holder, or another clone's lease). */
  | 'LEASE_MISMATCH'
  | 'CAPACITY_EXHAUSTED'
  /** The host already holds the caller's `maxLeases` leased clones (503; nothing was made). */
  | 'HOST_FULL'
  | 'CLONE_FAILED'
  | 'CONFIG_INVALID'
  /** Another live hostd owns this clone namespace (or its slot) on this host. */
  | 'NAMESPACE_TAKEN'
  /** The relay could not reach the leased clone's jail-service (502). */
  | 'CLONE_UNREACHABLE'
  /** A relayed request body over the relay's bound (413). */
  | 'BODY_TOO_LARGE'
  | 'UNAUTHORIZED';

export class HostdError extends Error {
  readonly code: HostdErrorCode;
  readonly status: number;
  constructor(code: HostdErrorCode, message: string, status = 500, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
    this.status = status;
  }
}
