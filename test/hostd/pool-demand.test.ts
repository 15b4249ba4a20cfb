// The warm pool's target follows demand (issue 24, 4): the floor always, one more per clone asked
// for in the last window plus the asks waiting for a clone being made, never above the ceiling;
// a quiet window brings it back. Retargeting discards the oldest ready clones above the target
// and makes what is missing; a clone finished after the target fell is discarded, not kept. And
// through hostd's API on the fake driver: a burst of tasks raises the pool, a quiet window shrinks
// it back to the floor, destroying the clones it no longer needs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PoolDemand } from '../../hostd/src/clones/pool-demand.js';
import { WarmPool } from '../../hostd/src/clones/warm-pool.js';
import { eventually, leaseHostdPerTest } from '../security/support/lease-hostd.js';

describe('pool demand', () => {
  it('keeps the floor, grows with arrivals and waiting asks up to the ceiling, and falls back', () => {
    let now = 0;
    const demand = new PoolDemand({ floor: 1, ceiling: 3, windowMs: 1000, now: () => now });
    assert.equal(demand.target(), 1);
    demand.arrived();
    demand.arrived();
    assert.equal(demand.target(), 2);
    demand.waiting(true);
    assert.equal(demand.target(), 3);
    demand.arrived();
    assert.equal(demand.target(), 3, 'never above the ceiling');
    demand.waiting(false);
    now = 1500;
    assert.equal(demand.target(), 1, 'a quiet window: back to the floor');
  });
});

describe('warm pool retarget', () => {
  it('makes more when the target rises and discards the oldest above it when it falls', async () => {
    let made = 0;
    const discarded: number[] = [];
    const pool = new WarmPool<number>({
      target: 1,
      make: async () => {
        made += 1;
        return made;
      },
      discard: async (item) => {
        discarded.push(item);
      },
      retryMinMs: 10,
      retryMaxMs: 10,
    });
    pool.fill();
    await eventually(() => pool.size === 1);
    pool.retarget(3);
    assert.ok(await eventually(() => pool.size === 3), 'grew to 3');
    pool.retarget(1);
    assert.equal(pool.size, 1);
    assert.deepEqual(discarded, [1, 2], 'the oldest went');
    assert.equal(pool.take(true), 3);
    await pool.close();
  });

  it('discards a clone finished after the target fell below what is ready', async () => {
    let release = () => {};
    const discarded: string[] = [];
    let calls = 0;
    const pool = new WarmPool<string>({
      target: 2,
      make: () => {
        calls += 1;
        return calls === 1
          ? Promise.resolve('fast')
          : new Promise<string>((resolve) => {
              release = () => resolve('slow');
            });
      },
      discard: async (item) => {
        discarded.push(item);
      },
      retryMinMs: 10,
      retryMaxMs: 10,
    });
    pool.fill();
    await eventually(() => pool.size === 1);
    pool.retarget(1);
    release();
    await eventually(() => discarded.length === 1);
    assert.deepEqual([pool.size, discarded], [1, ['slow']]);
    await pool.close();
  });
});

const start = leaseHostdPerTest();

describe('hostd: the pool follows demand', () => {
  it('grows during a burst of tasks and shrinks back to the floor when they stop', async () => {
    const h = await start({ poolSize: 1, poolMax: 3, poolWindowMs: 1000 });
    h.manager.fillPool();
    assert.equal(await h.manager.poolReady(10_000), true);
    const clones = await Promise.all(
      ['a', 'b', 'c'].map((taskId) => h.client.createClone({ taskId })),
    );
    assert.ok(
      await eventually(() => h.manager.poolStatus().ready === 3, 10_000),
      `the pool grew to 3: ${JSON.stringify(h.manager.poolStatus())}`,
    );
    for (const clone of clones) await h.destroy(clone);
    assert.ok(
      await eventually(
        () => h.manager.poolStatus().target === 1 && h.manager.poolStatus().ready === 1,
        10_000,
      ),
      `back to the floor: ${JSON.stringify(h.manager.poolStatus())}`,
    );
    const warm = [...h.driver.clones.keys()];
    assert.equal(warm.length, 1, `only the floor's clone is left on the host: ${warm}`);
  });
});
