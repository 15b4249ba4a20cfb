import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  StoredAdminSessions,
  sessionIdHash,
} from '../../../../../controlplane/src/ingress/dashboard/admin-sessions.js';
import { freshConnection, type StoreBackend } from './store-backends.js';

const T = 1_795_000_000_000;
const HOUR = 60 * 60 * 1000;
const row = (idHash: string, expiresAt: number) => ({ idHash, expiresAt, createdAt: T });

/** Behaviour every DashboardSessionStore adapter must have, and the sessions built on it. */
export function dashboardSessionStoreContract(backend: StoreBackend): void {
  describe(`DashboardSessionStore contract: ${backend.name}`, { skip: backend.skip }, () => {
    it('reads back the expiry of a stored session, and nothing once removed', async (t) => {
      const { dashboardSessions: store } = await freshConnection(backend, t);
      await store.put(row('a'.repeat(64), T + HOUR));
      assert.equal(await store.expiresAt('a'.repeat(64)), T + HOUR);
      assert.equal(await store.expiresAt('b'.repeat(64)), null);
      await store.remove('a'.repeat(64));
      assert.equal(await store.expiresAt('a'.repeat(64)), null);
      await store.remove('a'.repeat(64)); // removing a gone session is no error
    });

    it('removes the sessions expired at or before a time, and only those', async (t) => {
      const { dashboardSessions: store } = await freshConnection(backend, t);
      await store.put(row('old', T - 1));
      await store.put(row('edge', T));
      await store.put(row('live', T + 1));
      assert.equal(await store.removeExpired(T), 2);
      assert.equal(await store.expiresAt('old'), null);
      assert.equal(await store.expiresAt('edge'), null);
      assert.equal(await store.expiresAt('live'), T + 1);
      assert.equal(await store.removeExpired(T), 0);
    });

    it('holds a login for every connection, keyed by the hash of the id, until one ends it', async (t) => {
      const a = await freshConnection(backend, t);
      const b = await (await backend.fresh()).connect(); // another database: must not see it
      t.after(() => b.close());
      const now = () => T;
      const sessions = new StoredAdminSessions(a.dashboardSessions, HOUR, now);
      const id = await sessions.create();
      assert.match(id, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(await a.dashboardSessions.expiresAt(id), null, 'the id itself is not stored');
      assert.equal(await a.dashboardSessions.expiresAt(sessionIdHash(id)), T + HOUR);
      assert.equal(await sessions.valid(id), true);
      assert.equal(await new StoredAdminSessions(b.dashboardSessions, HOUR, now).valid(id), false);
      assert.equal(await sessions.valid(undefined), false);
      assert.equal(await sessions.valid(`${id}x`), false);
      await sessions.end(id);
      assert.equal(await sessions.valid(id), false);
    });

    it('deletes an expired session when it is presented, and expired rows at each login', async (t) => {
      const { dashboardSessions: store } = await freshConnection(backend, t);
      let now = T;
      const sessions = new StoredAdminSessions(store, HOUR, () => now);
      const first = await sessions.create();
      const unseen = await sessions.create();
      now = T + HOUR; // both end exactly now
      assert.equal(await sessions.valid(first), false);
      assert.equal(await store.expiresAt(sessionIdHash(first)), null);
      assert.equal(await store.expiresAt(sessionIdHash(unseen)), T + HOUR, 'not presented yet');
      const next = await sessions.create();
      assert.equal(await store.expiresAt(sessionIdHash(unseen)), null, 'pruned at the login');
      assert.equal(await sessions.valid(next), true);
    });
  });
}
