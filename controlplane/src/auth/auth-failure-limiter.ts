import type { AuditLog } from '../audit/audit-log.js';

/** One refused request, as the auth middleware saw it. */
export interface AuthFailure {
  actor: string;
  method: string;
  path: string;
  code: string;
  scope: string;
}

export interface AuthFailureLimiterOptions {
  audit: AuditLog;
  /** Failures per source and window before `retryAfterSeconds` says to refuse with 429. */
  limit: number;
  windowMs: number;
  now?: () => number;
  /** Sources tracked at once; past it, new sources share one `overflow` window (memory bound). */
  maxSources?: number;
  /** Told about a summary the timer could not append (must not throw). */
  onError?: (error: unknown) => void;
}

/**
 * Counts failed authentication per client address in fixed windows. The first failure of a
 * window is audited at once (`auth-failed` with its details); the rest are audited as one summary
 * row (`count`, per-code counts, how many got 429) when the window ends, so a flood adds at most
 * two rows per source and window. Never throws into the request (audit failures are swallowed
 * by the caller's audit port contract).
 */
export interface AuthFailureLimiter {
  /** Seconds until `source` may fail again, or null when it is under its limit. */
  retryAfterSeconds(source: string): number | null;
  /** Counts one failure (`throttled`: it was answered 429). */
  record(source: string, failure: AuthFailure, throttled: boolean): void;
  /** Writes the summaries of every window that has ended (and all of them with `all`). */
  sweep(all?: boolean): void;
  close(): void;
}

interface Window {
  start: number;
  actor: string;
  count: number;
  throttled: number;
  codes: Record<string, number>;
}

export function createAuthFailureLimiter(options: AuthFailureLimiterOptions): AuthFailureLimiter {
  const now = options.now ?? Date.now;
  const maxSources = options.maxSources ?? 10_000;
  const windows = new Map<string, Window>();

  const summarise = (source: string, window: Window) => {
    windows.delete(source);
    if (window.count <= 1) return;
    options.audit.append({
      type: 'auth-failed',
      actor: window.actor,
      data: {
        source,
        summary: true,
        window_start: window.start,
        window_ms: options.windowMs,
        count: window.count - 1,
        codes: window.codes,
        throttled: window.throttled,
      },
    });
  };
  const current = (source: string): Window | undefined => {
    const window = windows.get(source);
    if (window && now() >= window.start + options.windowMs) {
      summarise(source, window);
      return undefined;
    }
    return window;
  };
  const keyOf = (source: string) =>
    windows.has(source) || windows.size < maxSources ? source : 'overflow';
  const timer = setInterval(
    () => {
      try {
        limiter.sweep();
      } catch (error) {
        options.onError?.(error);
      }
    },
    Math.min(options.windowMs, 60_000),
  );
  timer.unref();

  const limiter: AuthFailureLimiter = {
    retryAfterSeconds(source) {
      const window = current(keyOf(source));
      if (!window || window.count < options.limit) return null;
      return Math.max(1, Math.ceil((window.start + options.windowMs - now()) / 1000));
    },
    record(source, failure, throttled) {
      const key = keyOf(source);
      const window = current(key);
      if (window) {
        window.count += 1;
        window.throttled += throttled ? 1 : 0;
        if (window.count > 1) window.codes[failure.code] = (window.codes[failure.code] ?? 0) + 1;
        return;
      }
      windows.set(key, { start: now(), actor: failure.actor, count: 1, throttled: 0, codes: {} });
      const { actor, ...details } = failure;
      options.audit.append({ type: 'auth-failed', actor, data: { source: key, ...details } });
    },
    sweep(all = false) {
      const cutoff = now() - options.windowMs;
      for (const [source, window] of windows)
        if (all || window.start <= cutoff) summarise(source, window);
    },
    close() {
      clearInterval(timer);
      limiter.sweep(true);
    },
  };
  return limiter;
}
