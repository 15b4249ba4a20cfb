// Every domain failure of the jail-service: one AppError per HTTP-visible outcome, each with a
// stable `code` from the API contract and an HTTP status hint. Bugs stay plain `Error`s.
import type { ErrorCode } from '@clawdie/kit/jail-api';

/** One zod-style issue of a rejected request: a dotted path and a message. */
export interface RequestIssue {
  path: string;
  message: string;
}

export interface AppErrorOptions {
  status?: number;
  cause?: unknown;
  issues?: RequestIssue[];
}

/** A domain failure with a contract error code; `app.onError` turns it into a JSON error body. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly issues: RequestIssue[] | undefined;
  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? 500;
    this.issues = options.issues;
  }
}

/** The request is malformed: bad JSON, unknown keys, wrong types (issues list the details). */
export class BadRequestError extends AppError {
  declare readonly code: 'BAD_REQUEST';
  constructor(message: string, issues?: RequestIssue[], status = 400) {
    super('BAD_REQUEST', message, issues ? { status, issues } : { status });
    this.name = 'BadRequestError';
  }
}

export class UnauthorizedError extends AppError {
  declare readonly code: 'UNAUTHORIZED';
  constructor(message = 'a valid bearer token is required') {
    super('UNAUTHORIZED', message, { status: 401 });
    this.name = 'UnauthorizedError';
  }
}

export class NotFoundError extends AppError {
  declare readonly code: 'NOT_FOUND';
  constructor(message: string) {
    super('NOT_FOUND', message, { status: 404 });
    this.name = 'NotFoundError';
  }
}

/** A coordinate lies outside the CSS viewport (x ≥ width or y ≥ height). */
export class OutOfRangeError extends AppError {
  declare readonly code: 'OUT_OF_RANGE';
  constructor(message: string, issues?: RequestIssue[]) {
    super('OUT_OF_RANGE', message, issues ? { status: 400, issues } : { status: 400 });
    this.name = 'OutOfRangeError';
  }
}

/** A key name that the key map does not know (checked before any action runs). */
export class UnknownKeyError extends AppError {
  declare readonly code: 'UNKNOWN_KEY';
  constructor(message: string, issues?: RequestIssue[]) {
    super('UNKNOWN_KEY', message, issues ? { status: 400, issues } : { status: 400 });
    this.name = 'UnknownKeyError';
  }
}

/** A tool call did not finish within its bound; the page has been interrupted since. */
export class ToolTimeoutError extends AppError {
  declare readonly code: 'TOOL_TIMEOUT';
  readonly tool: string;
  readonly timeoutMs: number;
  constructor(tool: string, timeoutMs: number) {
    super('TOOL_TIMEOUT', `${tool} did not finish within ${timeoutMs} ms`, { status: 504 });
    this.name = 'ToolTimeoutError';
    this.tool = tool;
    this.timeoutMs = timeoutMs;
  }
}

/** The browser is gone or the page cannot be used (crashed, disconnected). */
export class BrowserUnavailableError extends AppError {
  declare readonly code: 'BROWSER_UNAVAILABLE';
  constructor(message: string, cause?: unknown) {
    super('BROWSER_UNAVAILABLE', message, { status: 503, cause });
    this.name = 'BrowserUnavailableError';
  }
}

/** An action was valid but the browser refused or failed to carry it out. */
export class ActionFailedError extends AppError {
  declare readonly code: 'ACTION_FAILED';
  constructor(message: string, cause?: unknown) {
    super('ACTION_FAILED', message, { status: 500, cause });
    this.name = 'ActionFailedError';
  }
}

/** `navigate` / `open_url` / `navigate_back` failed (network error, timeout); the tab stays open. */
export class NavigationFailedError extends AppError {
  declare readonly code: 'NAVIGATION_FAILED';
  constructor(message: string, cause?: unknown) {
    super('NAVIGATION_FAILED', message, { status: 502, cause });
    this.name = 'NavigationFailedError';
  }
}

/** The page moved on between `POST /landing` and the action (`expect`): nothing was dispatched. */
export class LandingChangedError extends AppError {
  declare readonly code: 'LANDING_CHANGED';
  constructor(message: string) {
    super('LANDING_CHANGED', message, { status: 409 });
    this.name = 'LandingChangedError';
  }
}

/** A secret's `type` found the focus outside the field its guard allows: nothing was typed. */
export class FocusMismatchError extends AppError {
  declare readonly code: 'FOCUS_MISMATCH';
  constructor(message: string) {
    super('FOCUS_MISMATCH', message, { status: 409 });
    this.name = 'FocusMismatchError';
  }
}

/** The configuration is unusable; the message names every offending variable. */
export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID' as const;
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Turns anything thrown into a contract error `{ code, message }` (for batch results). */
export function toErrorInfo(error: unknown): { code: ErrorCode; message: string } {
  if (error instanceof AppError) return { code: error.code, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'ACTION_FAILED', message };
}
