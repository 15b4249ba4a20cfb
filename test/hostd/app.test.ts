import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HostdClientError } from '../../hostd/src/api/client.js';
import { compileAllowlist } from '../../hostd/src/proxy/domain-rules.js';
import { FAKE_HOSTD_LIMITS, FAKE_HOSTD_TOKEN, fakeHostdApps } from './support/fake-hostd-app.js';
import { connectThrough } from './support/proxy-probe.js';

const TOKEN = FAKE_HOSTD_TOKEN;
const limits = FAKE_HOSTD_LIMITS;

const setup = fakeHostdApps();

describe('hostd HTTP API with HostdClient', () => {
  it('refuses a body over 64 KiB with 413 JSON and closes the connection', async () => {
    const { app } = setup();
    const response = await app.request('/clones', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ taskId: 'x'.repeat(70 * 1024) }),
    });
    assert.equal(response.status, 413);
    assert.equal(response.headers.get('connection'), 'close');
    assert.equal(
      ((await response.json()) as { error: { code: string } }).error.code,
      'BODY_TOO_LARGE',
    );
  });

  it('rejects a request without the bearer token with 401', async () => {
    const { app } = setup();
    assert.equal((await app.request('/health')).status, 401);
    const wrong = await app.request('/health', { headers: { authorization: 'Bearer nope' } });
    assert.equal(wrong.status, 401);
  });

  it('creates, gets, lists and destroys a clone (destroy is idempotent)', async () => {
    const { client, driver } = setup();
    const clone = await client.createClone({ taskId: 'task-1', allowedDomains: ['Example.com'] });
    assert.equal(clone.name, 'browsertask001');
    assert.equal(clone.state, 'running');
    assert.deepEqual(clone.allowedDomains, ['example.com']);
    assert.deepEqual(clone.limits, limits);
    assert.equal(clone.fromPool, false);
    assert.match(clone.egressProxyUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(clone.leaseId.length >= 32, 'an unguessable lease id');
    assert.equal(clone.generation, 1);
    assert.equal((await client.getClone(clone)).taskId, 'task-1');
    assert.deepEqual(
      (await client.listClones('task-1')).map((c) => [c.name, c.generation, 'leaseId' in c]),
      [[clone.name, 1, false]],
    );
    const destroyed = { name: clone.name, destroyed: true, leftovers: [] };
    assert.deepEqual(
      await Promise.all([client.destroyClone(clone), client.destroyClone(clone)]),
      [destroyed, destroyed],
      'a repeated DELETE of the same lease, even concurrent, is idempotent',
    );
    assert.deepEqual(await client.destroyClone(clone), {
      name: clone.name,
      destroyed: true,
      leftovers: [],
    });
    assert.equal(driver.clones.size, 0);
    await assert.rejects(
      () => client.getClone(clone),
      (error) => error instanceof HostdClientError && error.status === 404,
    );
  });

  it('answers 400 with the issues for an invalid request', async () => {
    const { client } = setup();
    await assert.rejects(
      () => client.createClone({ taskId: '', allowedDomains: ['not a host'] }),
      (error) =>
        error instanceof HostdClientError && error.status === 400 && error.code === 'BAD_REQUEST',
    );
  });

  it('destroys a clone whose start failed and reports 503', async () => {
    const { client, driver } = setup();
    driver.failNextStart = true;
    await assert.rejects(
      () => client.createClone({ taskId: 'task-x' }),
      (error) => error instanceof HostdClientError && error.status === 503,
    );
    assert.equal(driver.clones.size, 0);
  });

  it('hands out warm clones instantly and refills the pool in the background', async () => {
    const { client, manager } = setup(2);
    manager.fillPool();
    assert.equal(await manager.poolReady(5000), true);
    const clone = await client.createClone({ taskId: 'warm', allowedDomains: ['a.test'] });
    assert.equal(clone.fromPool, true);
    assert.equal(clone.taskId, 'warm');
    assert.ok(clone.readyMs < 150, `warm hand-out took ${clone.readyMs} ms`);
    assert.equal(await manager.poolReady(5000), true);
    const { pool } = await client.health();
    assert.deepEqual([pool.target, pool.ready, pool.failures, pool.lastError], [2, 2, 0, null]);
    const cold = await client.createClone({ taskId: 'big', limits: { memoryMb: 4096 } });
    assert.equal(cold.fromPool, false);
  });

  it('lists and streams a lease’s egress refusals, ending the stream when the lease ends', async () => {
    const { client } = setup();
    const clone = await client.createClone({ taskId: 'audit', allowedDomains: ['ok.test'] });
    assert.equal(await connectThrough(clone.egressProxyUrl ?? '', 'evil.test:443'), 403);
    const refusals = await client.egressRefusals(clone);
    assert.deepEqual(
      refusals.map((r) => [r.seq, r.host, r.port, r.taskId, r.leaseId === clone.leaseId]),
      [[1, 'evil.test', 443, 'audit', true]],
    );
    assert.equal((await client.egressRefusals(clone, 1)).length, 0);
    const seen: string[] = [];
    const following = client.followEgressRefusals(clone, {
      onRefusal: (refusal) => seen.push(`${refusal.seq} ${refusal.host}`),
    });
    assert.equal(await connectThrough(clone.egressProxyUrl ?? '', 'other.test:443'), 403);
    await client.destroyClone(clone);
    assert.deepEqual(await following, { ended: true, lastSeq: 2 });
    assert.deepEqual(seen, ['1 evil.test', '2 other.test']);
  });

  it('refuses a per-clone request without a lease, or with another clone’s lease', async () => {
    const { app, client } = setup();
    const a = await client.createClone({ taskId: 'a' });
    const b = await client.createClone({ taskId: 'b' });
    const bare = await app.request(`/clones/${a.name}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    assert.equal(bare.status, 400);
    assert.equal(((await bare.json()) as { error: { code: string } }).error.code, 'LEASE_REQUIRED');
    await assert.rejects(
      () => client.destroyClone({ name: a.name, leaseId: b.leaseId }),
      (error) => error instanceof HostdClientError && error.code === 'LEASE_MISMATCH',
    );
    await assert.rejects(
      () => client.egressRefusals({ name: a.name, leaseId: 'x'.repeat(32) }),
      (error) => error instanceof HostdClientError && error.code === 'LEASE_NOT_FOUND',
    );
    assert.equal((await client.getClone(a)).taskId, 'a');
  });

  it('revokes every task lease (a restarted caller’s orphans) and keeps the warm pool', async () => {
    const { client, manager } = setup(1);
    manager.fillPool();
    assert.equal(await manager.poolReady(5000), true);
    const held = await client.createClone({ taskId: 'orphan', limits: { memoryMb: 4096 } });
    const { revoked } = await client.revokeAllLeases();
    assert.deepEqual(
      revoked.map((r) => [r.name, r.taskId]),
      [[held.name, 'orphan']],
    );
    assert.deepEqual(await client.listClones(), []);
    assert.equal((await client.health()).pool.ready, 1);
  });
});

describe('egress allowlist matching', () => {
  it('matches exact hosts and subdomains of *.patterns, not the apex or look-alikes', () => {
    const allowed = compileAllowlist(['example.com', '*.example.org']);
    assert.equal(allowed('example.com', 443), true);
    assert.equal(allowed('EXAMPLE.com.', 80), true);
    assert.equal(allowed('www.example.com', 443), false);
    assert.equal(allowed('a.b.example.org', 443), true);
    assert.equal(allowed('example.org', 443), false);
    assert.equal(allowed('badexample.org', 443), false);
    assert.equal(allowed('example.org.evil.test', 443), false);
  });
});
