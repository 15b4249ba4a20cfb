import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HostRecord } from '../../../../../controlplane/src/platform/store/host-repository.js';
import { freshConnection, type StoreBackend } from './store-backends.js';

const T = 1_795_000_000_000;
const host = (name: string, over: Partial<HostRecord> = {}) => ({
  name,
  url: `http://10.0.0.${name.length}:7070`,
  labels: { os: 'freebsd', region: 'eu' },
  capacity: 4,
  state: 'active' as const,
  token: { ciphertext: `c-${name}`, iv: `i-${name}`, tag: `t-${name}` },
  addedAt: T,
  ...over,
});

/** Behaviour every HostRepository adapter must have. */
export function hostRepositoryContract(backend: StoreBackend): void {
  describe(`HostRepository contract: ${backend.name}`, { skip: backend.skip }, () => {
    it('adds a host once, reads it back whole, and refuses the name again', async (t) => {
      const { hosts } = await freshConnection(backend, t);
      await hosts.add(host('bsd-1'));
      assert.deepEqual(await hosts.get('bsd-1'), {
        ...host('bsd-1'),
        heartbeatAt: null,
        ...(backend.ownClock ? { heartbeatAgeMs: null } : {}),
        clones: 0,
        lastError: null,
      });
      await assert.rejects(hosts.add(host('bsd-1', { url: 'http://other:1' })), {
        code: 'HOST_EXISTS',
      });
      assert.equal((await hosts.get('bsd-1'))?.url, host('bsd-1').url);
      assert.equal(await hosts.get('nope'), null);
    });

    it('lists hosts in byte order of their names', async (t) => {
      const { hosts } = await freshConnection(backend, t);
      for (const name of ['b', 'A', 'a', 'B-2']) await hosts.add(host(name));
      assert.deepEqual(
        (await hosts.list()).map((h) => h.name),
        ['A', 'B-2', 'a', 'b'],
      );
    });

    it('records a good beat (clears the error) and a failed one (keeps the last good time)', async (t) => {
      const { hosts } = await freshConnection(backend, t);
      await hosts.add(host('h'));
      assert.equal(await hosts.beat('h', { at: T + 5, clones: 3 }), true);
      const first = (await hosts.get('h'))?.heartbeatAt;
      assert.equal(await hosts.beat('h', { at: T + 9, error: 'ECONNREFUSED' }), true);
      let got = await hosts.get('h');
      assert.deepEqual([got?.heartbeatAt, got?.clones, got?.lastError], [first, 3, 'ECONNREFUSED']);
      await sleep(5);
      await hosts.beat('h', { at: T + 12, clones: 0 });
      got = await hosts.get('h');
      assert.deepEqual([got?.clones, got?.lastError], [0, null]);
      if (backend.ownClock) {
        // The database's time, not the caller's (T lies years ahead), and its age by that clock.
        assert.ok(Math.abs((first ?? 0) - Date.now()) < 60_000, `${first} is the database's`);
        assert.ok((got?.heartbeatAt ?? 0) > (first ?? Infinity), 'a later beat, a later time');
        const age = got?.heartbeatAgeMs ?? -1;
        assert.ok(age >= 0 && age < 10_000, `heartbeat age ${age} by the database's clock`);
      } else {
        assert.deepEqual(
          [first, got?.heartbeatAt, got?.heartbeatAgeMs],
          [T + 5, T + 12, undefined],
        );
      }
      assert.equal(await hosts.beat('gone', { at: T, clones: 1 }), false);
    });

    it('drains and removes, answering false for an unknown host', async (t) => {
      const { hosts } = await freshConnection(backend, t);
      await hosts.add(host('h'));
      assert.equal(await hosts.setState('h', 'draining'), true);
      assert.equal((await hosts.get('h'))?.state, 'draining');
      assert.equal(await hosts.setState('nope', 'draining'), false);
      assert.equal(await hosts.remove('h'), true);
      assert.equal(await hosts.remove('h'), false);
      assert.deepEqual(await hosts.list(), []);
    });

    it('is one registry for every connection (replicas see each other’s changes)', async (t) => {
      const fresh = await backend.fresh();
      const a = await fresh.connect();
      const b = await fresh.connect();
      t.after(async () => {
        await a.close();
        await b.close();
      });
      await a.hosts.add(host('shared'));
      await b.hosts.beat('shared', { at: T + 1, clones: 2 });
      assert.equal((await a.hosts.get('shared'))?.clones, 2);
      await Promise.all(
        [a.hosts.add(host('race')), b.hosts.add(host('race'))].map((p) =>
          p.catch((e: { code?: string }) => e.code),
        ),
      );
      assert.deepEqual(
        (await a.hosts.list()).map((h) => h.name),
        ['race', 'shared'],
      );
    });
  });
}
