// Reproduction (issue 12, item 7): egress refusals were fetched by clone *name* when the clone was
// destroyed, and names are reused — one task got 38 `egress-refused` rows, 28 of them from earlier
// tasks and warm-up; and a controlplane that died before destroy lost them all. Refusals are now
// streamed live per lease and audited to the task holding that lease, as they happen.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connectThrough } from '../hostd/support/proxy-probe.js';
import { eventually, leaseHostdPerTest } from './support/lease-hostd.js';

const start = leaseHostdPerTest();

describe('egress refusals are audited to the task whose lease they happened under, live', () => {
  it('never gives a task the refusals of its clone’s warm-up', async () => {
    const h = await start({ poolSize: 1 });
    h.manager.fillPool();
    assert.equal(await h.manager.poolReady(5000), true);
    const [warmName] = [...h.driver.clones.keys()];
    assert.ok(warmName);
    // The warm clone's browser calls home while it waits in the pool: refused, not a task's doing.
    assert.equal(await connectThrough(h.proxyOf(warmName), 'warmup.test:443'), 403);

    const lease = await h.provider.acquire({ taskId: 'task-1', allowedDomains: ['ok.test'] });
    assert.equal(lease.id, warmName, 'the task got the warm clone');
    assert.equal(await connectThrough(h.proxyOf(lease.id), 'task1-evil.test:443'), 403);
    assert.ok(
      await eventually(async () => (await h.refusedHosts('task-1')).includes('task1-evil.test')),
      'the task’s refusal is audited while the task still holds the clone',
    );
    await lease.release();
    assert.deepEqual(await h.refusedHosts('task-1'), ['task1-evil.test']);
    assert.deepEqual(await h.refusedHosts('warm-pool'), []);
  });

  it('never gives a task the refusals of its clone name’s previous holder', async () => {
    const h = await start({});
    const first = await h.provider.acquire({ taskId: 'task-a', allowedDomains: [] });
    assert.equal(await connectThrough(h.proxyOf(first.id), 'a-only.test:443'), 403);
    assert.ok(
      await eventually(async () => (await h.refusedHosts('task-a')).length === 1),
      'audited live',
    );
    await first.release();

    const second = await h.provider.acquire({ taskId: 'task-b', allowedDomains: [] });
    assert.equal(await connectThrough(h.proxyOf(second.id), 'b-only.test:443'), 403);
    assert.ok(
      await eventually(async () => (await h.refusedHosts('task-b')).length === 1),
      'audited live',
    );
    await second.release();

    assert.deepEqual(await h.refusedHosts('task-a'), ['a-only.test']);
    assert.deepEqual(await h.refusedHosts('task-b'), ['b-only.test']);
  });

  it('audits refusals as they happen, so a controlplane that dies before destroy loses none', async () => {
    const h = await start({});
    const lease = await h.provider.acquire({ taskId: 'task-crash', allowedDomains: [] });
    const proxy = h.proxyOf(lease.id);
    for (const host of ['one.test', 'two.test', 'three.test'])
      assert.equal(await connectThrough(proxy, `${host}:443`), 403);
    // No release: the controlplane is about to die. Everything refused so far is already audited.
    assert.ok(
      await eventually(async () => (await h.refusedHosts('task-crash')).length === 3),
      JSON.stringify(await h.refusedHosts('task-crash')),
    );
    assert.deepEqual(await h.refusedHosts('task-crash'), ['one.test', 'two.test', 'three.test']);
    await lease.release();
    assert.equal(
      (await h.refusedHosts('task-crash')).length,
      3,
      'the flush at destroy repeats none',
    );
  });
});
