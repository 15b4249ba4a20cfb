// The warm pool's refill after a hand-out waits for the handed-out clone to go quiet: two samples
// in a row under a tenth of a core, the clone gone or unreadable, or the wait's bound — on a
// manual clock, with the clone's CPU time scripted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RefillGate } from '../../hostd/src/clones/refill-gate.js';

/** A gate on a manual clock whose clone uses `perSample` ms of CPU in each 100 ms sample. */
function gate(perSample: (sample: number) => number | null, maxWaitMs = 3000) {
  let now = 0;
  let used = 0;
  let sample = 0;
  const reads: number[] = [];
  const refill = new RefillGate({
    maxWaitMs,
    now: () => now,
    sleep: async (ms) => {
      now += ms;
      const cost = perSample(sample);
      sample += 1;
      used = cost === null ? Number.NaN : used + cost;
    },
    cpuTimeMs: async () => {
      reads.push(now);
      return Number.isNaN(used) ? null : used;
    },
  });
  return { refill, at: () => now, reads };
}

describe('refill gate', () => {
  it('lets a refill start at once when no clone was handed out', async () => {
    const { refill, reads } = gate(() => 100);
    await refill.quiet();
    assert.deepEqual(reads, []);
  });

  it('waits while the clone is busy, and lets go after two quiet samples', async () => {
    // Busy (a navigation, 80 ms of CPU per 100 ms) for 5 samples, then idle.
    const { refill, at } = gate((sample) => (sample < 5 ? 80 : 1));
    refill.handedOut('browsertask001');
    await refill.quiet();
    assert.equal(at(), 700, 'five busy samples, then two quiet ones');
  });

  it('counts a busy sample between quiet ones as a new start', async () => {
    const { refill, at } = gate((sample) => [1, 50, 1, 1][sample] ?? 1);
    refill.handedOut('browsertask001');
    await refill.quiet();
    assert.equal(at(), 400);
  });

  it('lets go as soon as the clone is gone', async () => {
    const { refill, at } = gate((sample) => (sample < 2 ? 90 : null));
    refill.handedOut('browsertask001');
    await refill.quiet();
    assert.equal(at(), 300);
  });

  it('lets go at its bound when the clone stays busy', async () => {
    const { refill, at } = gate(() => 100, 1000);
    refill.handedOut('browsertask001');
    await refill.quiet();
    assert.equal(at(), 1000);
  });

  it('never waits with a bound of 0, nor when the driver cannot read CPU time', async () => {
    const zero = gate(() => 100, 0);
    zero.refill.handedOut('browsertask001');
    await zero.refill.quiet();
    assert.equal(zero.at(), 0);
    const blind = new RefillGate({});
    blind.handedOut('browsertask001');
    await blind.quiet();
  });

  it('stops waiting when told to (the pool closes)', async () => {
    let closed = false;
    const { refill, at } = gate((sample) => {
      if (sample === 1) closed = true;
      return 100;
    });
    refill.handedOut('browsertask001');
    await refill.quiet(() => closed);
    assert.equal(at(), 200);
  });
});
