// POST /clones `maxLeases`: the host refuses a clone past the caller's bound on leased clones, and
// concurrent creates cannot both take the last slot (real hostd app, fake clone driver).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HostdClientError } from '../../hostd/src/api/client.js';
import { fakeHostdApps } from './support/fake-hostd-app.js';

const setup = fakeHostdApps();

const isHostFull = (error: unknown) =>
  error instanceof HostdClientError && error.code === 'HOST_FULL' && error.status === 503;

describe('hostd maxLeases', () => {
  it('of N+1 concurrent creates with maxLeases N, leases exactly N and refuses one HOST_FULL, leaking nothing', async () => {
    const { client, driver, manager } = setup();
    const limit = 3;
    const outcomes = await Promise.allSettled(
      Array.from({ length: limit + 1 }, (_, i) =>
        client.createClone({ taskId: `t${i}`, maxLeases: limit }),
      ),
    );
    const made = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    assert.equal(made.length, limit);
    assert.equal(refused.length, 1);
    assert.ok(isHostFull(refused[0]?.reason), String(refused[0]?.reason));
    assert.equal(manager.leaseCount(), limit);
    assert.equal(driver.clones.size, limit, 'the refused create made no clone');
    assert.equal(driver.calls.filter((call) => call.startsWith('create')).length, limit);
    // A slot ends: the next create under the same bound is taken.
    const first = made[0];
    if (first?.status !== 'fulfilled') throw new Error('unreachable');
    await client.destroyClone(first.value);
    const next = await client.createClone({ taskId: 'after', maxLeases: limit });
    assert.equal(next.taskId, 'after');
    assert.equal(driver.clones.size, limit);
  });

  it('counts every holder’s leases, frees the slot of a failed create and is no bound when not sent', async () => {
    const { client, driver, manager } = setup();
    await client.createClone({ taskId: 'a', holder: 'replica-a' });
    driver.failNextStart = true;
    await assert.rejects(client.createClone({ taskId: 'x', maxLeases: 2 }), (error) => {
      assert.ok(error instanceof HostdClientError && error.code !== 'HOST_FULL');
      return true;
    });
    await client.createClone({ taskId: 'b', holder: 'replica-b', maxLeases: 2 });
    await assert.rejects(client.createClone({ taskId: 'c', maxLeases: 2 }), isHostFull);
    // Without maxLeases (an older controlplane, a single host) nothing changes.
    await client.createClone({ taskId: 'd' });
    assert.equal(manager.leaseCount(), 3);
    assert.equal(driver.clones.size, 3);
  });

  it('does not count warm clones: a pooled hand-out within the bound is instant', async () => {
    const { client, manager } = setup(2);
    manager.fillPool();
    assert.equal(await manager.poolReady(5000), true);
    const clone = await client.createClone({ taskId: 'warm', maxLeases: 1 });
    assert.equal(clone.fromPool, true);
    await assert.rejects(client.createClone({ taskId: 'second', maxLeases: 1 }), isHostFull);
  });
});
