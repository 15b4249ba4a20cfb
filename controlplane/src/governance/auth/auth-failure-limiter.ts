import type { AuditLog } from '../audit/audit-log.js';
import { boundText } from '../audit/bounded-fields.js';

/** One refused request, as the guard that refused it saw it (bearer auth, login, takeover link). */
export interface AuthFailure {
  /** The row its first occurrence is audited as (default `auth-failed`). */
  type?: 'auth-failed' | 'takeover-refused';
  actor: string;
  method: string;
  /** Stored bounded (`boundText`): it is whatever the client asked for. */
  path: string;
  code: string;
  scope: string;
  /** The task it concerned, when that is a well-formed task id. */
  taskId?: string | null;
  /** Further bounded details for the audited row (e.g. a malformed id's digest). */
  details?: Record<string, string>;
}

/** Distinct codes audited in full per source and window; any further ones only count. */
const DETAILED_CODES = 8;

export interface AuthFailureLimiterOptions {
  audit: AuditLog;
  /** Failures per source and window before `retryAfterSeconds` says to refuse with 429. */
  limit: number;
  windowMs: number;
  now?: () => number;
  /** Sources tracked at once; past it, new sources share one `overflow` window (memory bound). */
  maxSources?: number;
  /** Told about a summary that could not be appended (must not throw). */
  onError?: (error: unknown) => void;
}

/**
 * Counts refused requests per client address in fixed windows: every route that refuses an
 * unauthenticated or unauthorised caller (bearer auth on `/v1` and `/mcp`, the dashboard login,
 * takeover links and sessions) shares one limiter. The first failure of each code in a window,
 * while under the limit, is audited at once (its `type`, bounded details); the rest are audited
 * as one summary row (`auth-failed`, `summary: true`: `count`, per-code counts, how many got
 * 429) when the window ends, so a flood adds at most `DETAILED_CODES` + 1 rows per source and
 * window, however many requests it sends. `record` resolves once a failure's own row is committed
 * (the refusing route awaits it before it answers); summaries are appended in the background, a
 * failing one told to `onError`.
 */
export interface AuthFailureLimiter {
  /** Seconds until `source` may fail again, or null when it is under its limit. */
  retryAfterSeconds(source: string): number | null;
  /**
   * Counts one failure (`throttled`: it was answered 429); resolves once its row, if it gets one,
   * is committed. Rejects only when that append fails.
   */
  record(source: string, failure: AuthFailure, throttled: boolean): Promise<void>;
  /** Writes the summaries of every window that has ended (and all of them with `all`). Never rejects. */
  sweep(all?: boolean): Promise<void>;
  /** Stops the timer and writes every summary. Never rejects. */
  close(): Promise<void>;
}

interface Window {
  start: number;
  actor: string;
  /** Failures not audited in full (what the summary reports). */
  count: number;
  throttled: number;
  /** Every failure of the window, audited or not (what the limit counts). */
  total: number;
  codes: Record<string, number>;
  detailed: Set<string>;
}

export function createAuthFailureLimiter(options: AuthFailureLimiterOptions): AuthFailureLimiter {
  const now = options.now ?? Date.now;
  const maxSources = options.maxSources ?? 10_000;
  const windows = new Map<string, Window>();

  /** Appends a window's summary row; never rejects (a failure goes to `onError`). */
  const summarise = async (source: string, window: Window): Promise<void> => {
    windows.delete(source);
    if (window.count === 0) return;
    try {
      await options.audit.append({
        type: 'auth-failed',
        actor: window.actor,
        data: {
          source,
          summary: true,
          window_start: window.start,
          window_ms: options.windowMs,
          count: window.count,
          codes: window.codes,
          throttled: window.throttled,
        },
      });
    } catch (error) {
      options.onError?.(error);
    }
  };
  const current = (source: string): Window | undefined => {
    const window = windows.get(source);
    if (window && now() >= window.start + options.windowMs) {
      void summarise(source, window);
      return undefined;
    }
    return window;
  };
  const keyOf = (source: string) =>
    windows.has(source) || windows.size < maxSources ? source : 'overflow';
  const timer = setInterval(() => void limiter.sweep(), Math.min(options.windowMs, 60_000));
  timer.unref();

  const limiter: AuthFailureLimiter = {
    retryAfterSeconds(source) {
      const window = current(keyOf(source));
      if (!window || window.total < options.limit) return null;
      return Math.max(1, Math.ceil((window.start + options.windowMs - now()) / 1000));
    },
    async record(source, failure, throttled) {
      const key = keyOf(source);
      let window = current(key);
      if (!window) {
        window = {
          start: now(),
          actor: failure.actor,
          count: 0,
          throttled: 0,
          total: 0,
          codes: {},
          detailed: new Set(),
        };
        windows.set(key, window);
      }
      window.total += 1;
      window.throttled += throttled ? 1 : 0;
      const kind = `${failure.type ?? 'auth-failed'}:${failure.code}`;
      // Past the limit, or a code already audited this window: counted for the summary only.
      if (throttled || window.detailed.has(kind) || window.detailed.size >= DETAILED_CODES) {
        window.count += 1;
        window.codes[failure.code] = (window.codes[failure.code] ?? 0) + 1;
        return;
      }
      window.detailed.add(kind);
      const { type = 'auth-failed', actor, taskId, details, path, ...rest } = failure;
      await options.audit.append({
        type,
        actor,
        taskId: taskId ?? null,
        data: { source: boundText(key), ...rest, path: boundText(path), ...details },
      });
    },
    async sweep(all = false) {
      const cutoff = now() - options.windowMs;
      const ended = [...windows].filter(([, window]) => all || window.start <= cutoff);
      await Promise.all(ended.map(([source, window]) => summarise(source, window)));
    },
    close() {
      clearInterval(timer);
      return limiter.sweep(true);
    },
  };
  return limiter;
}
