// How long a model call waits before it tries again: the server's Retry-After on 429 and 503
// (delta-seconds or an HTTP-date; never earlier than asked, never longer than the cap), otherwise
// exponential back-off with jitter, so tasks that failed together do not retry together.
import type { ModelRetryReason } from './chat-types.js';

export interface BackoffOptions {
  /** Back-off before the first retry, before jitter; doubles per retry. */
  baseMs: number;
  /** No wait is longer: a larger Retry-After or back-off is cut to this. */
  maxMs: number;
  /** Uniform in [0, 1): the jitter source (Math.random in production, fixed in tests). */
  random: () => number;
}

/** Default cap on one wait: a Retry-After of minutes is not worth holding a task for. */
export const MAX_RETRY_DELAY_MS = 30_000;

/**
 * A Retry-After header as milliseconds from `now`, or null when absent or unreadable
 * (RFC 9110 §10.2.3: delta-seconds, or an HTTP-date; a date in the past is 0).
 */
export function parseRetryAfter(value: string | null, now: number): number | null {
  const text = value?.trim() ?? '';
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date always names a day or month; this keeps "1.5" or "-1" from parsing as a date.
  if (!/[a-z]/i.test(text)) return null;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Back-off before retry `retry` (1-based): base·2^(retry−1), capped, jittered into [½, 1]. */
export function backoffMs(retry: number, options: BackoffOptions): number {
  const full = Math.min(options.baseMs * 2 ** (retry - 1), options.maxMs);
  return Math.round(full / 2 + (full / 2) * options.random());
}

/**
 * The wait a Retry-After asks for, plus up to half the base back-off of jitter (tasks told the
 * same second do not all return in the same millisecond), capped.
 */
export function retryAfterDelayMs(retryAfterMs: number, options: BackoffOptions): number {
  const jitter = Math.round((options.baseMs / 2) * options.random());
  return Math.min(retryAfterMs + jitter, options.maxMs);
}

/**
 * Whether an HTTP status is worth a retry, and why: 429 and 5xx are; a 4xx is the request's
 * fault and is not. Only 429 and 503 carry a Retry-After the client honours.
 */
export function statusRetry(
  status: number,
): { reason: ModelRetryReason; honoursRetryAfter: boolean } | null {
  if (status === 429) return { reason: 'rate_limited', honoursRetryAfter: true };
  if (status >= 500) return { reason: 'server_error', honoursRetryAfter: status === 503 };
  return null;
}

/**
 * The retries one call may make, by kind: `retries` after failures (5xx, dropped connections,
 * timeouts, a 429 without Retry-After), twice as many waits the server asked for (429/503 with
 * Retry-After: the server is up and says when), and one re-ask of an empty or truncated reply.
 */
export function createCallRetries(retries: number, backoff: BackoffOptions) {
  let failures = 0;
  let waits = 0;
  let reasked = false;
  return {
    /** The wait before retrying this failure, or null when the call may not retry it. */
    next(failure: { reason: ModelRetryReason | null; retryAfterMs: number | null }): number | null {
      const { reason, retryAfterMs } = failure;
      if (reason === null) return null;
      if (reason === 'empty_reply' || reason === 'truncated_reply') {
        if (reasked) return null;
        reasked = true;
        return 0;
      }
      if (retryAfterMs !== null) {
        if (waits >= retries * 2) return null;
        waits += 1;
        return retryAfterDelayMs(retryAfterMs, backoff);
      }
      if (failures >= retries) return null;
      failures += 1;
      return backoffMs(failures, backoff);
    },
  };
}
