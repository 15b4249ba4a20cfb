// Lease holders: each controlplane names itself when it takes a clone; hostd keeps the name with
// the lease, shows it, and revokes exactly the holders a caller names (fake clone driver).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostdClient } from '../../hostd/src/api/client.js';
import { FAKE_HOSTD_TOKEN, fakeHostdApps } from './support/fake-hostd-app.js';

const TOKEN = FAKE_HOSTD_TOKEN;

const setup = fakeHostdApps();

const holdersOf = async (client: HostdClient) =>
  (await client.listClones()).map((clone) => [clone.taskId, clone.holder]);

describe('lease holders on hostd', () => {
  it('keeps the holder a clone was taken with (from the pool too) and lists it; none is unnamed', async () => {
    const { client, manager } = setup(1);
    manager.fillPool();
    assert.equal(await manager.poolReady(5000), true);
    const pooled = await client.createClone({ taskId: 'p', holder: 'replica-a' });
    assert.equal(pooled.fromPool, true);
    assert.equal(pooled.holder, 'replica-a');
    const made = await client.createClone({ taskId: 'm', holder: 'replica-b' });
    assert.equal(made.fromPool, false);
    await client.createClone({ taskId: 'u' });
    assert.deepEqual((await holdersOf(client)).sort(), [
      ['m', 'replica-b'],
      ['p', 'replica-a'],
      ['u', null],
    ]);
    assert.equal((await client.getClone(made)).holder, 'replica-b');
  });

  it('revokes exactly the named holders’ leases, leaving other holders, unnamed leases and the pool', async () => {
    const { client, manager } = setup(1);
    manager.fillPool();
    assert.equal(await manager.poolReady(5000), true);
    const gone = await client.createClone({ taskId: 'g1', holder: 'gone' });
    await client.createClone({ taskId: 'g2', holder: 'gone' });
    const live = await client.createClone({ taskId: 'l1', holder: 'live' });
    await client.createClone({ taskId: 'u1' });
    const { revoked } = await client.revokeLeases({ holders: ['gone', 'never-seen'] });
    assert.deepEqual(revoked.map((entry) => [entry.taskId, entry.holder, entry.leftovers]).sort(), [
      ['g1', 'gone', []],
      ['g2', 'gone', []],
    ]);
    assert.deepEqual((await holdersOf(client)).sort(), [
      ['l1', 'live'],
      ['u1', null],
    ]);
    // The revoked lease is ended: its clone answers as gone; the live holder's still works.
    await assert.rejects(client.getClone(gone), { status: 404 });
    assert.equal((await client.getClone(live)).taskId, 'l1');
    assert.equal((await client.health()).pool.ready, 1);

    const unnamed = await client.revokeLeases({ holders: [], unnamed: true });
    assert.deepEqual(
      unnamed.revoked.map((entry) => [entry.taskId, entry.holder]),
      [['u1', null]],
    );
    assert.deepEqual(await holdersOf(client), [['l1', 'live']]);
  });

  it('refuses a revoke without a holder list (400), and revoke-all still ends every lease', async () => {
    const { app, client } = setup();
    const response = await app.request('/leases/revoke', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ unnamed: true }),
    });
    assert.equal(response.status, 400);
    await client.createClone({ taskId: 'a', holder: 'x' });
    await client.createClone({ taskId: 'b' });
    const { revoked } = await client.revokeAllLeases();
    assert.deepEqual(revoked.map((entry) => entry.holder).sort(), [null, 'x'].sort());
    assert.deepEqual(await client.listClones(), []);
  });
});
