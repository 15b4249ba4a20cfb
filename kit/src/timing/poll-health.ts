// The one health poller: waits for a child service's authenticated `/health` to answer 200, and
// stops early when the child exits, the time runs out or the caller aborts. Used by hostd (Linux
// clone jail-services, FreeBSD jail jail-services) and the controlplane (embedded hostd, local
// jail-service). The probe, clock and sleep are injectable so the FreeBSD fake host's virtual time
// and fake health answers run through this same loop.
import { sleep as realSleep } from './sleep.js';

/**
 * One attempt: true when healthy; false or a reason (`HTTP 503`, an error message) when not.
 * Must not throw.
 */
export type HealthProbe = (
  url: string,
  token: string,
  signal?: AbortSignal,
) => Promise<boolean | string>;

export interface PollHealthOptions {
  /** Base URL of the service; `/health` is appended by the default probe. */
  url: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token: string;
  /** Resolves with the exit code (null: killed by a signal) when the child is gone. */
  exited?: Promise<number | null>;
  timeoutMs: number;
  /** Pause after the first failed attempt. */
  intervalMs: number;
  /** The pause doubles after each failed attempt up to this; default `intervalMs` (no backoff). */
  maxIntervalMs?: number;
  /** Limit of one request of the default probe. Default 1000 ms. */
  requestTimeoutMs?: number;
  signal?: AbortSignal;
  /**
   * Resolves when the service says it is listening (hostd: its `jail-service listening` log line):
   * the pause before the next attempt ends then, once, so the first attempt that can succeed comes
   * at once and the pauses before it may be long (`maxIntervalMs`) without costing start time.
   */
  wake?: Promise<void>;
  /** Replaces the real `GET <url>/health` (FreeBSD's injectable health check, tests). */
  probe?: HealthProbe;
  /** Clock and sleep (FreeBSD's fake host runs in virtual time). */
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export type PollHealthResult =
  | { ok: true }
  | { ok: false; why: 'exited'; exitCode: number | null; reason: string }
  | { ok: false; why: 'timeout' | 'aborted'; reason: string };

/** The real probe: `GET <url>/health` with the bearer token, `requestTimeoutMs` per attempt. */
export function fetchHealthProbe(requestTimeoutMs = 1000): HealthProbe {
  return async function fetchHealth(url, token, signal) {
    const timeout = AbortSignal.timeout(requestTimeoutMs);
    try {
      const response = await fetch(`${url}/health`, {
        headers: { authorization: `Bearer ${token}` },
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      await response.body?.cancel();
      return response.ok || `HTTP ${response.status}`;
    } catch (error) {
      return (error as Error).message;
    }
  };
}

/** Never throws: every way of not becoming healthy is a value. */
export async function pollHealth(options: PollHealthOptions): Promise<PollHealthResult> {
  const now = options.now ?? Date.now;
  const pause = options.sleep ?? realSleep;
  const probe = options.probe ?? fetchHealthProbe(options.requestTimeoutMs);
  const deadline = now() + options.timeoutMs;
  let exited: { code: number | null } | undefined;
  void options.exited?.then((code) => {
    exited = { code };
  });
  let delay = options.intervalMs;
  let last = 'no answer yet';
  // `woken`: the service said it listens; `retried`: an attempt has been made since.
  let woken = false;
  let retried = false;
  const wake = options.wake?.then(() => {
    woken = true;
  });
  for (;;) {
    if (options.signal?.aborted) return { ok: false, why: 'aborted', reason: 'start aborted' };
    if (exited !== undefined) {
      const how = exited.code === null ? 'killed by a signal' : `exit code ${exited.code}`;
      return {
        ok: false,
        why: 'exited',
        exitCode: exited.code,
        reason: `the process exited (${how})`,
      };
    }
    const answer = await probe(options.url, options.token, options.signal);
    if (answer === true) return { ok: true };
    if (typeof answer === 'string') last = answer;
    if (now() + delay > deadline) break;
    if (woken && !retried) {
      // It said so while this attempt was under way: the next one goes at once.
      retried = true;
      continue;
    }
    const paused = pause(delay, options.signal).then(
      () => false,
      () => false,
    );
    if (wake && !woken) retried = await Promise.race([paused, wake.then(() => true)]);
    else await paused;
    delay = Math.min(delay * 2, options.maxIntervalMs ?? options.intervalMs);
  }
  return {
    ok: false,
    why: 'timeout',
    reason: `no healthy answer within ${options.timeoutMs} ms (${last})`,
  };
}
