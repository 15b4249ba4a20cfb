// Lease holders: each controlplane names itself when it takes a clone; hostd keeps the name with
// the lease, shows it, and revokes exactly the holders a caller names (fake clone driver).
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { HostdClient } from '../../hostd/src/api/client.js';
import { createApp } from '../../hostd/src/app.js';
import { CloneManager } from '../../hostd/src/clones/clone-manager.js';
import { FakeDriver } from './support/fake-jail-driver.js';

const TOKEN = 'test-token-0123456789';
const managers: CloneManager[] = [];

function setup(poolSize = 0) {
  const driver = new FakeDriver();
  const manager = new CloneManager({
    driver,
    defaultLimits: { memoryMb: 1024, pids: 512, cpuPercent: 100 },
    defaultDisplay: false,
    proxyPort: 0,
    poolSize,
    startTimeoutMs: 5000,
  });
  managers.push(manager);
  const app = createApp({ token: TOKEN, manager, driver });
  const client = new HostdClient({
    baseUrl: 'http://hostd.test',
    token: TOKEN,
    fetch: async (input, init) => app.request(input, init),
  });
  return { driver, manager, app, client };
}

afterEach(async () => {
  for (const manager of managers.splice(0)) await manager.close();
});

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
