import { setTimeout as delay } from 'node:timers/promises';

/** Time as a port, so loops and retries are testable without real waiting. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or rejects with an AbortError when `signal` fires. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: async (ms, signal) => {
    await delay(ms, undefined, signal ? { signal } : {});
  },
};

/** Milliseconds elapsed since `start` (a `performance.now()` reading), to 0.01 ms. */
export function elapsedMs(start: number): number {
  return Math.round((performance.now() - start) * 100) / 100;
}
