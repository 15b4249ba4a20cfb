// Typed failures of the browser_run_task pi extension. pi shows a thrown error's message to the
// model and the user, so every message says what failed and what to do about it.

/** Codes of {@link ControlplaneError}. */
export type ControlplaneErrorCode =
  | 'CONTROLPLANE_UNREACHABLE'
  | 'CONTROLPLANE_REJECTED'
  | 'CONTROLPLANE_BAD_RESPONSE'
  | 'CONFIG_INVALID';

/**
 * The controlplane could not be reached, answered with an HTTP error, or sent something that is
 * not the documented API. `retryable` marks transport failures and 5xx/429 answers, which the
 * event follower retries; anything else ends the tool call.
 */
export class ControlplaneError extends Error {
  override readonly name = 'ControlplaneError';
  readonly code: ControlplaneErrorCode;
  /** HTTP status of the answer, or null when there was none. */
  readonly status: number | null;
  /** The controlplane's own error code (`BAD_REQUEST`, `MODEL_NOT_CONFIGURED`, …), if any. */
  readonly serverCode: string | null;
  readonly retryable: boolean;

  constructor(
    code: ControlplaneErrorCode,
    message: string,
    options: { status?: number; serverCode?: string; retryable?: boolean; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status ?? null;
    this.serverCode = options.serverCode ?? null;
    this.retryable = options.retryable ?? false;
  }
}

/** The tool call was cancelled (Esc, `session.abort()`); thrown after the remote task was told to stop. */
export class TaskAbortedError extends Error {
  override readonly name = 'AbortError';
  readonly code = 'TASK_ABORTED';
  /** The remote task, or null when the call was cancelled before the controlplane accepted it. */
  readonly traceId: string | null;

  constructor(message: string, traceId: string | null) {
    super(message);
    this.traceId = traceId;
  }
}
