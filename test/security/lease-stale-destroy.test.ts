// Reproduction (issue 12, item 7): hostd destroyed clones by name with no owner check, so a stale
// DELETE (a retry from a task long over) killed the new clone — a warm one — that reused the name.
// Every per-clone request now presents the clone's lease; another lease touches nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventually, leaseHostdPerTest } from './support/lease-hostd.js';

const start = leaseHostdPerTest();

describe('a stale DELETE cannot destroy the clone that holds the name now', () => {
  it('refuses the previous holder’s lease on a reused name; the new clone lives on', async () => {
    // One index only: the second clone must reuse the first one's name.
    const h = await start({ indexRange: { min: 1, max: 1 } });
    const first = await h.client.createClone({ taskId: 'old-task' });
    await h.destroy(first);
    const second = await h.client.createClone({ taskId: 'new-task' });
    assert.equal(second.name, first.name);

    const callsBefore = h.driver.calls.length;
    const stale = await h.raw('DELETE', `/clones/${first.name}`, first.leaseId);
    assert.ok([404, 409].includes(stale.status), `stale DELETE answered ${stale.status}`);
    const code = (stale.body as { error?: { code?: string } } | null)?.error?.code;
    assert.match(code ?? '', /^LEASE_(NOT_FOUND|MISMATCH)$/);
    const bare = await h.raw('DELETE', `/clones/${first.name}`);
    assert.equal(bare.status, 400, 'a DELETE without any lease is refused too');

    assert.ok(h.driver.clones.has(second.name), 'the new clone still exists');
    assert.equal((await h.client.getClone(second)).taskId, 'new-task');
    assert.deepEqual(h.driver.calls.slice(callsBefore), [], 'the driver was not asked to destroy');
  });

  it('refuses a stale DELETE on a warm clone that reused the name; the pool keeps it', async () => {
    const h = await start({
      poolSize: 1,
      indexRange: { min: 1, max: 2 },
      poolRetry: { minMs: 20, maxMs: 100 },
    });
    h.manager.fillPool();
    assert.equal(await h.manager.poolReady(5000), true);
    const a = await h.client.createClone({ taskId: 'task-a' }); // the warm 001; pool refills 002
    assert.equal(await h.manager.poolReady(5000), true);
    await h.destroy(a);
    const b = await h.client.createClone({ taskId: 'task-b' }); // the warm 002; pool refills 001
    assert.notEqual(b.name, a.name);
    assert.equal(await h.manager.poolReady(5000), true);
    assert.ok(h.driver.clones.has(a.name), `the pool's new warm clone took ${a.name}`);

    const stale = await h.raw('DELETE', `/clones/${a.name}`, a.leaseId);
    assert.ok([404, 409].includes(stale.status), `stale DELETE answered ${stale.status}`);
    assert.ok(h.driver.clones.has(a.name), 'the warm clone survived the stale DELETE');
    const next = await h.client.createClone({ taskId: 'task-c' });
    assert.equal(next.fromPool, true);
    assert.equal(next.name, a.name);
    assert.equal(next.state, 'running');
  });

  it('refuses every per-clone route under another clone’s lease', async () => {
    const h = await start({});
    const mine = await h.client.createClone({ taskId: 'mine' });
    const theirs = await h.client.createClone({ taskId: 'theirs' });
    for (const [method, path] of [
      ['GET', `/clones/${theirs.name}`],
      ['GET', `/clones/${theirs.name}/egress-refusals`],
      ['GET', `/clones/${theirs.name}/egress-refusals/stream`],
      ['DELETE', `/clones/${theirs.name}`],
    ] as const) {
      const answer = await h.raw(method, path, mine.leaseId);
      assert.equal(answer.status, 409, `${method} ${path} answered ${answer.status}`);
    }
    assert.ok(await eventually(() => h.driver.clones.has(theirs.name)));
    assert.equal((await h.client.getClone(theirs)).taskId, 'theirs');
  });
});
