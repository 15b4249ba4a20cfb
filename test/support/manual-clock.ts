import type { Clock } from '../../controlplane/src/clock.js';

/** A clock that only moves when told to; `sleep` advances it instantly and records the delay. */
export function createManualClock(
  start = 1_700_000_000_000,
): Clock & { sleeps: number[]; advance(ms: number): void } {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    advance(ms) {
      now += ms;
    },
    async sleep(ms, signal) {
      signal?.throwIfAborted();
      sleeps.push(ms);
      now += ms;
    },
  };
}
