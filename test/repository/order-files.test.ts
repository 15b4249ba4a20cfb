// The suite's start order (test/support/order-files.mjs): planned so no slot waits for the host lock
// while other files could run, longest first, and better than name order by the runner's own rules.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { planOrder, readWeights, simulateRun, weightsText } from '../support/order-files.mjs';
import { repositoryRoot } from '../support/repository-root.js';

type Weights = Map<string, { seconds: number; lock: boolean }>;

const weights: Weights = new Map([
  ['a-lock-1', { seconds: 30, lock: true }],
  ['b-lock-2', { seconds: 30, lock: true }],
  ['c-lock-3', { seconds: 30, lock: true }],
  ['z-free-long', { seconds: 60, lock: false }],
  ...Array.from({ length: 12 }, (_, i) => [`e-free-${i}`, { seconds: 10, lock: false }] as const),
]);
const files = [...weights.keys()];

/** The most slots, over the run, that hold a lock file waiting for the lock. */
function mostWaiting(order: string[], concurrency: number): number {
  const slots = new Array(concurrency).fill(0);
  const waits: Array<[number, number]> = [];
  let lockFreeAt = 0;
  for (const file of order) {
    const { seconds, lock } = weights.get(file) ?? { seconds: 5, lock: false };
    const slot = slots.indexOf(Math.min(...slots));
    const start = lock ? Math.max(slots[slot], lockFreeAt) : slots[slot];
    if (start > slots[slot]) waits.push([slots[slot], start]);
    slots[slot] = start + seconds;
    if (lock) lockFreeAt = slots[slot];
  }
  const points = waits.flat();
  return Math.max(
    0,
    ...points.map((t) => waits.filter(([from, to]) => from <= t && t < to).length),
  );
}

describe('the suite start order (order-files.mjs)', () => {
  it('never holds a slot waiting for the lock while another file could run', () => {
    const byName = [...files].sort();
    assert.ok(mostWaiting(byName, 4) >= 2, 'name order makes lock files wait in two slots');
    const plan = planOrder(files, weights, 4);
    assert.equal(mostWaiting(plan.order, 4), 0);
    assert.deepEqual([...plan.order].sort(), byName, 'every file once');
  });

  it('starts the lock chain and the longest file first, and ends sooner than name order', () => {
    const plan = planOrder(files, weights, 4);
    // The lock is free at the start, so a lock file takes the first slot, the longest other the next.
    assert.deepEqual(plan.order.slice(0, 2), ['a-lock-1', 'z-free-long']);
    assert.equal(plan.expectedSeconds, simulateRun(plan.order, weights, 4));
    // By name, two lock files wait in their slots and the long file starts last: 130 s.
    assert.equal(simulateRun([...files].sort(), weights, 4), 130);
    // 90 s of lock files in a row is the floor here; the plan reaches it.
    assert.equal(plan.expectedSeconds, 90);
  });

  it('plans the repository suite at least as well as name order, on its weights file', () => {
    const committed = readWeights(
      readFileSync(join(repositoryRoot, 'test/support/file-weights.txt'), 'utf8'),
    );
    assert.ok(committed.size > 100, `${committed.size} files weighed`);
    assert.ok([...committed.values()].some((weight) => weight.lock));
    const gone = [...committed.keys()].filter((file) => !existsSync(join(repositoryRoot, file)));
    assert.deepEqual(gone, [], 'weighed files that no longer exist: refresh file-weights.txt');
    const suite = [...committed.keys()].sort();
    for (const concurrency of [2, 4, 6]) {
      const plan = planOrder(suite, committed, concurrency);
      assert.ok(plan.expectedSeconds <= simulateRun(suite, committed, concurrency));
    }
  });

  it('reads and writes the weights; a file it does not know keeps its place among equals', () => {
    const text = weightsText([
      { file: 'test/b.test.ts', ms: 12_000, lockWaitMs: 2_000 },
      { file: 'test/a.test.ts', ms: 3_000 },
    ]);
    const read = readWeights(`${text}not a line\n12 \n`);
    assert.deepEqual(
      [...read],
      [
        ['test/a.test.ts', { seconds: 3, lock: false }],
        ['test/b.test.ts', { seconds: 10, lock: true }],
      ],
    );
    const unknown = ['x', 'y', 'z'];
    assert.deepEqual(planOrder(unknown, new Map(), 2).order, unknown);
  });

  it('runs as run-tests.sh calls it, and refuses a bad concurrency', () => {
    const script = join(repositoryRoot, 'test/support/order-files.mjs');
    const listed = spawnSync(process.execPath, [script, '4'], {
      input: 'test/none-a.test.ts\ntest/none-b.test.ts\n',
      encoding: 'utf8',
    });
    assert.equal(listed.status, 0, listed.stderr);
    assert.equal(listed.stdout, 'test/none-a.test.ts\ntest/none-b.test.ts\n');
    const refused = spawnSync(process.execPath, [script, '0'], { input: '', encoding: 'utf8' });
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /use CONCURRENCY/);
  });
});
