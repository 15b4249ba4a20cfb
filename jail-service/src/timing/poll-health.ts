// The one health poller: waits for a child service's authenticated `/health` to answer 200, and
// stops early when the child exits, the time runs out or the caller aborts. Used by hostd (clone
// jail-services) and the controlplane (embedded hostd, local jail-service).
import { sleep } from './sleep.js';

export interface PollHealthOptions {
  /** Base URL of the service; `/health` is appended. */
  url: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token: string;
  /** Resolves with the exit code (null: killed by a signal) when the child is gone. */
  exited: Promise<number | null>;
  timeoutMs: number;
  /** Pause between attempts. */
  intervalMs: number;
  /** Limit of one request. Default 1000 ms. */
  requestTimeoutMs?: number;
  signal?: AbortSignal;
}

export type PollHealthResult =
  | { ok: true }
  | { ok: false; why: 'exited'; exitCode: number | null; reason: string }
  | { ok: false; why: 'timeout' | 'aborted'; reason: string };

/** Never throws: every way of not becoming healthy is a value. */
export async function pollHealth(options: PollHealthOptions): Promise<PollHealthResult> {
  const deadline = Date.now() + options.timeoutMs;
  let exited: { code: number | null } | undefined;
  void options.exited.then((code) => {
    exited = { code };
  });
  let last = 'no answer yet';
  while (Date.now() < deadline) {
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
    try {
      const response = await fetch(`${options.url}/health`, {
        headers: { authorization: `Bearer ${options.token}` },
        signal: AbortSignal.timeout(options.requestTimeoutMs ?? 1000),
      });
      await response.body?.cancel();
      if (response.ok) return { ok: true };
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(options.intervalMs, options.signal).catch(() => {});
  }
  return {
    ok: false,
    why: 'timeout',
    reason: `no healthy answer within ${options.timeoutMs} ms (${last})`,
  };
}
