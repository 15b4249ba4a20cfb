import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SessionProfileMeta } from '../../../../../controlplane/src/platform/store/session-profile-repository.js';
import { freshConnection, type StoreBackend } from './store-backends.js';

const T = 1_795_000_000_000;
const sealed = (n: number) => ({ ciphertext: `c${n}`, iv: `i${n}`, tag: `t${n}` });
const profile = (
  tenant: string,
  name: string,
  extra: Partial<SessionProfileMeta> = {},
): SessionProfileMeta => ({
  tenant,
  name,
  origins: ['https://a.example', 'https://b.example:8443'],
  cookieCount: 3,
  sourceTask: 'task-1',
  createdBy: `tenant:${tenant}/alice`,
  createdAt: T,
  expiresAt: T + 86_400_000,
  revokedAt: null,
  ...extra,
});
const names = (rows: SessionProfileMeta[]) => rows.map((row) => `${row.tenant}/${row.name}`);

/** Behaviour every SessionProfileStore adapter must have. */
export function sessionProfileStoreContract(backend: StoreBackend): void {
  describe(`SessionProfileStore contract: ${backend.name}`, { skip: backend.skip }, () => {
    it('returns what was put, meta and sealed bundle apart; null for an unknown profile', async (t) => {
      const { sessionProfiles } = await freshConnection(backend, t);
      const meta = profile('acme', 'crm', { sourceTask: null });
      await sessionProfiles.put(meta, sealed(1));
      assert.deepEqual(await sessionProfiles.meta('acme', 'crm'), meta);
      assert.deepEqual(await sessionProfiles.sealed('acme', 'crm'), sealed(1));
      assert.equal(await sessionProfiles.meta('globex', 'crm'), null);
      assert.equal(await sessionProfiles.sealed('acme', 'other'), null);
    });

    it('replaces the profile of the same tenant and name, a revoked one included', async (t) => {
      const { sessionProfiles } = await freshConnection(backend, t);
      await sessionProfiles.put(profile('acme', 'crm'), sealed(1));
      await sessionProfiles.revoke('acme', 'crm', T + 1);
      const again = profile('acme', 'crm', { cookieCount: 7, origins: [], createdAt: T + 2 });
      await sessionProfiles.put(again, sealed(2));
      assert.deepEqual(await sessionProfiles.meta('acme', 'crm'), again);
      assert.deepEqual(await sessionProfiles.sealed('acme', 'crm'), sealed(2));
      assert.deepEqual(names(await sessionProfiles.list('acme')), ['acme/crm']);
    });

    it("lists a tenant's profiles by name, or every tenant's by tenant then name (byte order)", async (t) => {
      const { sessionProfiles } = await freshConnection(backend, t);
      for (const [tenant, name] of [
        ['globex', 'b'],
        ['acme', 'b'],
        ['acme', 'a'],
        ['Zeta', 'x'],
        ['acme', 'C'],
      ] as const) {
        await sessionProfiles.put(profile(tenant, name), sealed(1));
      }
      assert.deepEqual(names(await sessionProfiles.list('acme')), ['acme/C', 'acme/a', 'acme/b']);
      assert.deepEqual(names(await sessionProfiles.list(undefined)), [
        'Zeta/x',
        'acme/C',
        'acme/a',
        'acme/b',
        'globex/b',
      ]);
      assert.deepEqual(await sessionProfiles.list('initech'), []);
    });

    it('revokes a live profile once: the record stays, the bundle goes', async (t) => {
      const { sessionProfiles } = await freshConnection(backend, t);
      await sessionProfiles.put(profile('acme', 'crm'), sealed(1));
      assert.equal(await sessionProfiles.revoke('acme', 'crm', T + 5), true);
      assert.equal(await sessionProfiles.revoke('acme', 'crm', T + 6), false);
      assert.equal(await sessionProfiles.revoke('acme', 'unknown', T + 6), false);
      assert.deepEqual(
        await sessionProfiles.meta('acme', 'crm'),
        profile('acme', 'crm', { revokedAt: T + 5 }),
      );
      assert.equal(await sessionProfiles.sealed('acme', 'crm'), null);
    });

    it('finds profiles expired at or before a time that still hold a bundle, and wipes them', async (t) => {
      const { sessionProfiles } = await freshConnection(backend, t);
      await sessionProfiles.put(profile('acme', 'due', { expiresAt: T + 10 }), sealed(1));
      await sessionProfiles.put(profile('globex', 'past', { expiresAt: T + 5 }), sealed(1));
      await sessionProfiles.put(profile('acme', 'later', { expiresAt: T + 11 }), sealed(1));
      await sessionProfiles.put(profile('acme', 'revoked', { expiresAt: T + 1 }), sealed(1));
      await sessionProfiles.revoke('acme', 'revoked', T + 2);
      const expired = await sessionProfiles.expiredBefore(T + 10);
      assert.deepEqual(names(expired).sort(), ['acme/due', 'globex/past']);
      assert.deepEqual(
        expired.find((row) => row.name === 'due'),
        profile('acme', 'due', { expiresAt: T + 10 }),
      );
      await sessionProfiles.wipe('acme', 'due');
      assert.equal(await sessionProfiles.sealed('acme', 'due'), null);
      assert.equal(
        (await sessionProfiles.meta('acme', 'due'))?.revokedAt,
        null,
        'wiping is no revocation',
      );
      assert.deepEqual(names(await sessionProfiles.expiredBefore(T + 10)), ['globex/past']);
    });
  });
}
