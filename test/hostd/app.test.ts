import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { HostdClient, HostdClientError } from '../../hostd/src/api/client.js';
import { createApp } from '../../hostd/src/app.js';
import { CloneManager } from '../../hostd/src/clones/clone-manager.js';
import { compileAllowlist } from '../../hostd/src/proxy/domain-rules.js';
import { FakeDriver } from './support/fake-jail-driver.js';

const TOKEN = 'test-token-0123456789';
const limits = { memoryMb: 1024, pids: 512, cpuPercent: 100 };
const managers: CloneManager[] = [];

function setup(poolSize = 0) {
  const driver = new FakeDriver();
  const manager = new CloneManager({
    driver,
    defaultLimits: limits,
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

describe('hostd HTTP API with HostdClient', () => {
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
    assert.equal((await client.getClone(clone.name)).taskId, 'task-1');
    assert.deepEqual(
      (await client.listClones('task-1')).map((c) => c.name),
      [clone.name],
    );
    assert.deepEqual(await client.destroyClone(clone.name), {
      name: clone.name,
      destroyed: true,
      leftovers: [],
    });
    assert.deepEqual(await client.destroyClone(clone.name), {
      name: clone.name,
      destroyed: true,
      leftovers: [],
    });
    assert.equal(driver.clones.size, 0);
    await assert.rejects(
      () => client.getClone(clone.name),
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
    assert.deepEqual((await client.health()).pool, { target: 2, ready: 2 });
    const cold = await client.createClone({ taskId: 'big', limits: { memoryMb: 4096 } });
    assert.equal(cold.fromPool, false);
  });

  it('lists egress refusals per clone and for polling', async () => {
    const { client, manager } = setup();
    const clone = await client.createClone({ taskId: 'audit' });
    manager.refusals.add({
      name: clone.name,
      taskId: 'audit',
      host: 'evil.test',
      port: 443,
      method: 'CONNECT',
      reason: 'not-allowed',
    });
    const refusals = await client.egressRefusals({ name: clone.name });
    assert.deepEqual(
      refusals.map((r) => [r.seq, r.host]),
      [[1, 'evil.test']],
    );
    assert.equal((await client.egressRefusals({ after: 1 })).length, 0);
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
