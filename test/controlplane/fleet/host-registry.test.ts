// The host registry on a real SQLite file, heartbeats against real hostd apps on loopback (fake
// clone driver), each checking its own bearer token.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { serve } from '@hono/node-server';
import { createHostMonitor } from '../../../controlplane/src/fleet/host-monitor.js';
import { createHostRegistry } from '../../../controlplane/src/fleet/host-registry.js';
import { createAuditLog } from '../../../controlplane/src/governance/audit/audit-log.js';
import { createAuditRepository } from '../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../controlplane/src/platform/store/database.js';
import { createHostRepository } from '../../../controlplane/src/platform/store/host-repository.js';
import { createApp } from '../../../hostd/src/app.js';
import { CloneManager } from '../../../hostd/src/clones/clone-manager.js';
import { FakeDriver } from '../../hostd/support/fake-jail-driver.js';
import { silentLogger } from '../../support/silent-logger.js';

const dir = mkdtempSync(join(tmpdir(), 'clawdie-hosts-'));
const closers: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const close of closers.reverse()) await close();
  rmSync(dir, { recursive: true, force: true });
});

let clock = 1_000_000;
function fixture(name: string) {
  const database = openDatabase(join(dir, `${name}.db`));
  closers.push(() => database.close());
  const store = createHostRepository(database.db);
  const auditStore = createAuditRepository(database.db);
  const registry = createHostRegistry({
    store,
    key: () => Buffer.alloc(32, 7),
    audit: createAuditLog(auditStore, { now: () => clock }),
    now: () => clock,
    staleMs: 20_000,
  });
  return { database, store, registry, auditStore, path: join(dir, `${name}.db`) };
}

/** A real hostd HTTP app (fake clones) on loopback that accepts only `token`. */
async function startHostd(token: string, clones = 0): Promise<string> {
  const driver = new FakeDriver();
  const limits = { memoryMb: 256, pids: 64, cpuPercent: 50 };
  const manager = new CloneManager({
    driver,
    defaultLimits: limits,
    defaultDisplay: false,
    proxyPort: 0,
    poolSize: 0,
    startTimeoutMs: 5000,
  });
  for (let i = 0; i < clones; i += 1)
    await manager.create({ taskId: `t${i}`, allowedDomains: ['example.com'] });
  const app = createApp({ token, manager, driver });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const listening = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () =>
      resolve(listening),
    );
  });
  closers.push(async () => {
    await manager.close();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('jail host registry', () => {
  it('registers a host with a fresh token stored only sealed, and refuses bad or duplicate hosts', async () => {
    const { registry, path, auditStore } = fixture('add');
    const { token, host } = await registry.add(
      {
        name: 'bsd-1',
        url: 'http://10.0.0.5:7300',
        labels: { os: 'freebsd', display: 'no' },
        capacity: 6,
      },
      'cli',
    );
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(host.health, 'unknown');
    assert.equal('token' in host, false);
    assert.equal(JSON.stringify(await registry.list()).includes(token), false);
    assert.equal((await registry.endpoint('bsd-1')).token, token);
    assert.equal(readFileSync(path).includes(token), false, 'the token is in the database file');
    const [added] = [...auditStore.iterate()];
    assert.equal(added?.type, 'host-added');
    assert.equal(added?.actor, 'cli');
    assert.equal(added?.data.includes(token), false);

    const code = async (run: Promise<unknown>) =>
      run.then(
        () => 'resolved',
        (error: { code?: string }) => error.code,
      );
    const base = { url: 'http://10.0.0.6:7300', labels: {}, capacity: 4 };
    assert.equal(await code(registry.add({ ...base, name: 'bsd-1' }, 'cli')), 'HOST_EXISTS');
    assert.equal(await code(registry.add({ ...base, name: 'Bad Name' }, 'cli')), 'HOST_INVALID');
    assert.equal(
      await code(registry.add({ ...base, name: 'x', url: 'ftp://h' }, 'cli')),
      'HOST_INVALID',
    );
    assert.equal(
      await code(registry.add({ ...base, name: 'x', url: 'http://u:p@h:1' }, 'cli')),
      'HOST_INVALID',
    );
    assert.equal(
      await code(registry.add({ ...base, name: 'x', capacity: 0 }, 'cli')),
      'HOST_INVALID',
    );
    assert.equal(
      await code(registry.add({ ...base, name: 'x', labels: { os: 'a b' } }, 'cli')),
      'HOST_INVALID',
    );
    assert.equal(await code(registry.drain('nope', 'cli')), 'HOST_NOT_FOUND');
    assert.deepEqual(
      (await registry.list()).map((h) => h.name),
      ['bsd-1'],
    );
  });

  it("a sealed token moved to another host's row does not open", async () => {
    const { registry, store } = fixture('aad');
    const base = { url: 'http://10.0.0.5:7300', labels: {}, capacity: 2 };
    await registry.add({ ...base, name: 'one' }, 'cli');
    await registry.add({ ...base, name: 'two' }, 'cli');
    const one = await store.get('one');
    const two = await store.get('two');
    assert.ok(one && two);
    await store.remove('two');
    await store.add({ ...two, token: one.token });
    await assert.rejects(registry.endpoint('two'));
  });

  it('heartbeats with each host its own token: up with its clone count, down on a wrong token or a dead port', async () => {
    const { registry, store } = fixture('beat');
    const base = { labels: { os: 'linux' }, capacity: 4 };
    const placeholder = 'http://127.0.0.1:1';
    const good = await registry.add({ ...base, name: 'good', url: placeholder }, 'cli');
    await registry.add({ ...base, name: 'wrong', url: placeholder }, 'cli');
    await registry.add({ ...base, name: 'dead', url: placeholder }, 'cli');
    // Each hostd is configured with a token; `wrong`'s hostd has another host's token.
    const goodUrl = await startHostd(good.token, 2);
    const wrongUrl = await startHostd(good.token);
    for (const [name, url] of [
      ['good', goodUrl],
      ['wrong', wrongUrl],
    ] as const) {
      const record = await store.get(name);
      assert.ok(record);
      await store.remove(name);
      await store.add({ ...record, url });
    }
    const monitor = createHostMonitor({
      registry,
      store,
      logger: silentLogger,
      now: () => clock,
      timeoutMs: 2000,
    });
    await monitor.beatAll();
    const byName = new Map((await registry.list()).map((host) => [host.name, host]));
    assert.equal(byName.get('good')?.health, 'up');
    assert.equal(byName.get('good')?.clones, 2);
    assert.equal(byName.get('good')?.lastError, null);
    assert.equal(byName.get('wrong')?.health, 'down');
    assert.match(byName.get('wrong')?.lastError ?? '', /401|UNAUTHORIZED|bearer/i);
    assert.equal(byName.get('dead')?.health, 'down');
    assert.ok(byName.get('dead')?.lastError);

    clock += 20_001;
    assert.equal((await registry.list()).find((h) => h.name === 'good')?.health, 'down');
  });

  it('drain keeps a host listed but not active; remove refuses a busy host unless forced, and is audited', async () => {
    const { registry, store, auditStore } = fixture('drain');
    await registry.add({ name: 'h', url: 'http://10.0.0.5:7300', labels: {}, capacity: 2 }, 'cli');
    await store.beat('h', { at: clock, clones: 1 });
    assert.equal((await registry.drain('h', 'tenant:default/ops')).state, 'draining');
    await assert.rejects(
      registry.remove('h', 'cli'),
      (error: { code?: string; message: string }) => {
        assert.equal(error.code, 'HOST_BUSY');
        assert.match(error.message, /clawdie hosts drain h/);
        return true;
      },
    );
    await registry.remove('h', 'cli', { force: true });
    assert.deepEqual(await registry.list(), []);
    await assert.rejects(registry.endpoint('h'), /no host named h/);
    const types = [...auditStore.iterate()].map((row) => `${row.type}:${row.actor}`);
    assert.deepEqual(types, [
      'host-added:cli',
      'host-drained:tenant:default/ops',
      'host-removed:cli',
    ]);
  });
});
