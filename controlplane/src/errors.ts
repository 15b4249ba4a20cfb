/** Every domain failure of the controlplane, with a stable `code` and an HTTP status hint. */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  constructor(code: string, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? 500;
  }
}

export type ModelErrorCode =
  | 'MODEL_UNAVAILABLE'
  | 'MODEL_TIMEOUT'
  | 'MODEL_REJECTED'
  | 'MODEL_EMPTY_REPLY'
  | 'MODEL_BAD_RESPONSE';

/** The vision model could not give a usable reply (after retries where retrying made sense). */
export class ModelError extends AppError {
  declare readonly code: ModelErrorCode;
  constructor(code: ModelErrorCode, message: string, cause?: unknown) {
    super(code, message, { status: 502, cause });
    this.name = 'ModelError';
  }
}

export type OperatorErrorCode =
  | 'OPERATOR_UNAVAILABLE'
  | 'OPERATOR_BAD_RESPONSE'
  | 'OPERATOR_REJECTED'
  /** The jail host holding the task's clone stopped answering its heartbeat (fleet). */
  | 'HOST_LOST'
  /** The jail host refused a clone: it already holds its capacity in leased clones (fleet). */
  | 'HOST_FULL'
  /** A secret the task needs cannot be read (not stored, no vault key, undecryptable). */
  | 'SECRET_UNAVAILABLE';

/** The browser (jail-service) could not be reached or answered something unusable. */
export class OperatorError extends AppError {
  declare readonly code: OperatorErrorCode;
  constructor(code: OperatorErrorCode, message: string, cause?: unknown) {
    super(code, message, { status: 502, cause });
    this.name = 'OperatorError';
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super('NOT_FOUND', message, { status: 404 });
    this.name = 'NotFoundError';
  }
}

export class ConfigError extends AppError {
  constructor(message: string) {
    super('CONFIG_INVALID', message, { status: 500 });
    this.name = 'ConfigError';
  }
}

/**
 * A task or wait asks for a visual condition (judged by a vision model) and no judge is
 * configured: refused when it is admitted (400), never accepted and failed later.
 */
export class JudgeUnavailableError extends AppError {
  constructor(what: string) {
    super('JUDGE_UNAVAILABLE', judgeUnavailable(what), { status: 400 });
    this.name = 'JudgeUnavailableError';
  }
}

/** Why `what` (e.g. `success_criteria.visual`) is refused, naming the settings that fix it. */
export function judgeUnavailable(what: string): string {
  return `${what} needs a vision judge, and none is configured: set CLAWDIE_JUDGE_URL and CLAWDIE_JUDGE_NAME (a dedicated judge), or CLAWDIE_JUDGE_USE_MODEL=true (the task model judges)`;
}

/**
 * The reason a task's signal aborts when the task ran past its `timeout_s` (tasks/task-ending.ts):
 * named `TimeoutError` like the platform's, so every adapter treats it as the abort it is.
 */
export class TaskTimeoutError extends AppError {
  constructor(seconds: number) {
    super('TASK_TIMEOUT', `task exceeded its timeout of ${seconds} s`);
    this.name = 'TimeoutError';
  }
}

/**
 * An audit row a security decision depends on (the gate's `policy-decided`) could not be
 * committed (a full disk, a lost database): what it would have allowed is not done, and the task
 * ends `error AUDIT_WRITE_FAILED` (fail closed; docs/security.md).
 */
export class AuditWriteError extends AppError {
  declare readonly code: 'AUDIT_WRITE_FAILED';
  constructor(auditType: string, cause: unknown) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(
      'AUDIT_WRITE_FAILED',
      `the audit log could not be written (${auditType}: ${why}), so nothing more was run`,
      { status: 503, cause },
    );
    this.name = 'AuditWriteError';
  }
}

/** True for the errors an AbortSignal produces (fetch, timers, our own checks). */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}
