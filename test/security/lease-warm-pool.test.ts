// Reproduction (issue 12, item 7): one failed warm clone left hostd's pool at 0/1 for good, so 20
// concurrent tasks all got cold clones. The pool now retries with bounded exponential backoff and
// reports its state (size/target, failures, last error) on /health.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventually, leaseHostdPerTest } from './support/lease-hostd.js';

const start = leaseHostdPerTest();

describe('the warm pool refills after failures', () => {
  it('retries with exponential backoff until full, and /health shows the failures meanwhile', async () => {
    const h = await start({ poolSize: 1, poolRetry: { minMs: 60, maxMs: 240 } });
    h.driver.failCreates = 4;
    h.manager.fillPool();

    let failing = null as Awaited<ReturnType<typeof h.client.health>>['pool'] | null;
    assert.ok(
      await eventually(() => {
        void h.client.health().then((health) => {
          if (health.pool.failures > 0 && !failing) failing = health.pool;
        });
        return failing !== null;
      }),
      'health reported the failure',
    );
    assert.equal(failing?.ready, 0);
    assert.equal(failing?.target, 1);
    assert.match(failing?.lastError ?? '', /scripted create failure/);
    assert.ok(failing?.retryAt, 'a retry is scheduled');

    assert.equal(await h.manager.poolReady(10_000), true, 'the pool refilled');
    const { pool } = await h.client.health();
    assert.deepEqual([pool.ready, pool.target, pool.failures], [1, 1, 0]);
    assert.match(pool.lastError ?? '', /scripted create failure/, 'the last error stays visible');

    // 4 failures then a success: waits of about 60, 120, 240, 240 ms (capped) between attempts.
    const times = h.driver.createTimes;
    assert.equal(times.length, 5);
    const gaps = times.slice(1).map((time, i) => time - (times[i] ?? 0));
    const expected = [60, 120, 240, 240];
    gaps.forEach((gap, i) => {
      const want = expected[i] ?? 0;
      assert.ok(gap >= want * 0.9 && gap < want + 400, `gap ${i} was ${gap} ms, want ≈${want}`);
    });
    const clone = await h.client.createClone({ taskId: 'after-the-storm' });
    assert.equal(clone.fromPool, true);
  });
});
