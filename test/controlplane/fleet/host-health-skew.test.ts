// Jail host health seen by replicas on one PostgreSQL database whose machines' clocks disagree by
// 60 s: any replica records a host's heartbeat, every replica judges it. The age is the
// database's, so a replica ahead does not lose a host another just reached (its tasks would end
// HOST_LOST), and a host nobody reaches still goes down after the stale window.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { healthOf } from '../../../controlplane/src/fleet/host-registry.js';
import type { HostRepository } from '../../../controlplane/src/platform/store/host-repository.js';
import { openPgDatabase } from '../../../controlplane/src/platform/store/pg/pg-database.js';
import { createPgHostRepository } from '../../../controlplane/src/platform/store/pg/pg-host-repository.js';
import { requires } from '../../support/capabilities.js';
import { fileCluster } from '../../support/postgres/start-postgres.js';

const { database } = fileCluster();
const staleMs = 1_000;

/** A replica's view of the hosts table, with its machine's clock `skewMs` off this one's. */
async function replica(t: TestContext, url: string, skewMs: number) {
  const opened = await openPgDatabase(url);
  t.after(opened.close);
  const hosts: HostRepository = createPgHostRepository(opened.db);
  const now = () => Date.now() + skewMs;
  return {
    hosts,
    beat: (name: string) => hosts.beat(name, { at: now(), clones: 1 }),
    health: async (name: string) => {
      const host = await hosts.get(name);
      assert.ok(host, `${name} is registered`);
      return healthOf(host, now(), staleMs);
    },
  };
}

const host = {
  name: 'bsd-1',
  url: 'http://10.0.0.1:7300',
  labels: {},
  capacity: 2,
  state: 'active' as const,
  token: { ciphertext: 'c', iv: 'i', tag: 't' },
  addedAt: 1,
};

describe('jail host health with replica clocks 60 s apart', requires('postgres'), () => {
  it('a replica whose clock is ahead sees up a host another replica just reached', async (t) => {
    const url = await database();
    const behind = await replica(t, url, 0);
    const ahead = await replica(t, url, 60_000);
    await behind.hosts.add(host);
    await behind.beat(host.name);
    assert.equal(await ahead.health(host.name), 'up');
    await ahead.beat(host.name);
    assert.equal(await behind.health(host.name), 'up');
  });

  it('a host whose last good heartbeat is older than the stale window goes down for every replica', async (t) => {
    const url = await database();
    const behind = await replica(t, url, 0);
    // Recorded by a clock a minute ahead: by its own time it would stay up for 61 s.
    const ahead = await replica(t, url, 60_000);
    await ahead.hosts.add(host);
    await ahead.beat(host.name);
    assert.equal(await behind.health(host.name), 'up');
    await sleep(staleMs + 300);
    assert.equal(await behind.health(host.name), 'down');
    assert.equal(await ahead.health(host.name), 'down');
  });
});
