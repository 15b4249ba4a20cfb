import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFakeSessionTransfer } from '../../../support/fake-session-transfer.js';
import {
  bundle,
  cookieValue,
  idbValue,
  note,
  origin,
  principalOf,
  sessionFixture,
} from './session-fixture.js';

const save = { taskId: 't-acme', name: 'shop', origins: [origin] };

describe('session profile service', () => {
  it('saves a live task clone sealed, lists it without values and injects it audited', async () => {
    const { service, database, audit } = sessionFixture();
    const meta = await service.saveSessionFromTask(save, principalOf('acme'));
    assert.equal(meta.cookieCount, 1);
    assert.equal(meta.expiresAt - meta.createdAt, 3600_000);
    assert.equal(meta.createdBy, 'tenant:acme/acme-op');
    const listed = await service.list(principalOf('acme'));
    assert.deepEqual(
      listed.map((profile) => profile.name),
      ['shop'],
    );
    assert.ok(!JSON.stringify(listed).includes(cookieValue));
    const fresh = createFakeSessionTransfer(bundle);
    const counts = await service.inject(
      { tenant: 'acme', name: 'shop', taskId: 't2', actor: 'tenant:acme/x' },
      fresh,
    );
    assert.deepEqual(counts, { cookies: 1, origins: 1, indexedDb: { databases: 1, records: 2 } });
    assert.deepEqual(fresh.imported, [bundle]);
    const rows = JSON.stringify(
      database.db.$client.prepare('SELECT * FROM session_profiles').all(),
    );
    const trail = JSON.stringify(await audit.list({ limit: 100 }));
    for (const text of [rows, trail]) {
      for (const value of [cookieValue, note, idbValue])
        assert.ok(!text.includes(value), 'no value in rows or audit');
    }
    const types = (await audit.list({ limit: 100 })).map((row) => row.type);
    assert.deepEqual(types, ['session-saved', 'session-injected']);
    const [saved, injected] = await audit.list({ limit: 100 });
    assert.deepEqual(saved?.data, {
      tenant: 'acme',
      session: 'shop',
      origins: [origin],
      cookie_count: 1,
      idb_database_count: 1,
      idb_record_count: 2,
      idb_skipped: { blob: 1 },
      expires_at: meta.expiresAt,
    });
    assert.equal(injected?.taskId, 't2');
    assert.deepEqual(injected?.data, {
      tenant: 'acme',
      session: 'shop',
      origins: [origin],
      cookie_count: 1,
      idb_database_count: 1,
      idb_record_count: 2,
    });
  });

  it('keeps tenants apart: tenant B cannot save from, list, revoke or read tenant A', async () => {
    const { service } = sessionFixture();
    await service.saveSessionFromTask(save, principalOf('acme'));
    const globex = principalOf('globex');
    await assert.rejects(service.saveSessionFromTask(save, globex), { code: 'SESSION_NOT_FOUND' });
    assert.deepEqual(await service.list(globex), []);
    await assert.rejects(service.revoke('shop', globex, 'acme'), { code: 'SESSION_NOT_FOUND' });
    await assert.rejects(service.revoke('shop', globex), { code: 'SESSION_NOT_FOUND' });
    await assert.rejects(service.list(principalOf('acme', ['tasks:run'])), {
      code: 'SESSION_FORBIDDEN',
    });
    assert.equal(
      (await service.list(principalOf('root', ['admin']))).length,
      1,
      'admin sees every tenant',
    );
  });

  it('refuses to inject a revoked or expired profile, and sweeps expired bundles audited', async () => {
    const { service, clock, store, audit } = sessionFixture();
    await service.saveSessionFromTask(save, principalOf('acme'));
    await service.saveSessionFromTask({ ...save, name: 'old', ttlS: 60 }, principalOf('acme'));
    await service.revoke('shop', principalOf('acme'));
    const target = { tenant: 'acme', taskId: 't3', actor: 'a' };
    const clone = createFakeSessionTransfer(bundle);
    await assert.rejects(service.inject({ ...target, name: 'shop' }, clone), {
      code: 'SESSION_UNAVAILABLE',
    });
    clock.advance(61_000);
    await assert.rejects(service.inject({ ...target, name: 'old' }, clone), {
      code: 'SESSION_UNAVAILABLE',
    });
    assert.deepEqual(clone.imported, []);
    assert.equal(await store.sealed('acme', 'shop'), null, 'revoking wiped the bundle');
    assert.equal(await service.sweep(), 1);
    assert.equal(await store.sealed('acme', 'old'), null);
    assert.equal(await service.sweep(), 0);
    const types = (await audit.list({ limit: 100 })).map((row) => row.type);
    assert.deepEqual(types.slice(-2), ['session-revoked', 'session-expired']);
  });

  it('rejects bad names, bad origins and a task without a browser', async () => {
    const { service } = sessionFixture();
    const acme = principalOf('acme');
    await assert.rejects(service.saveSessionFromTask({ ...save, name: '../x' }, acme), {
      code: 'SESSION_INVALID',
    });
    await assert.rejects(service.saveSessionFromTask({ ...save, origins: [`${origin}/p`] }, acme), {
      code: 'SESSION_INVALID',
    });
    await assert.rejects(
      service.saveSessionFromTask({ ...save, taskId: 't-globex' }, principalOf('globex')),
      { code: 'SESSION_NO_BROWSER' },
    );
  });

  it('does not decrypt a bundle copied to another profile row', async () => {
    const { service, database } = sessionFixture();
    await service.saveSessionFromTask(save, principalOf('acme'));
    await service.saveSessionFromTask({ ...save, name: 'other' }, principalOf('acme'));
    database.db.$client.exec(
      "UPDATE session_profiles SET (ciphertext, iv, tag) = (SELECT ciphertext, iv, tag FROM session_profiles WHERE name = 'shop') WHERE name = 'other'",
    );
    const target = { tenant: 'acme', name: 'other', taskId: 't', actor: 'a' };
    await assert.rejects(service.inject(target, createFakeSessionTransfer(bundle)), {
      code: 'SESSION_UNAVAILABLE',
    });
  });
});
