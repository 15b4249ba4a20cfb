// The host registry on a real SQLite file, heartbeats against real hostd apps on loopback (fake
// clone driver), each checking its own bearer token.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { createHostMonitor } from '../../../controlplane/src/fleet/host-monitor.js';
import { silentLogger } from '../../support/silent-logger.js';
import { createFleetFixture } from './fleet-fixture.js';

const fleet = createFleetFixture();
after(() => fleet.close());
const fixture = () => fleet.openRegistry();

describe('jail host registry', () => {
  it('registers a host with a fresh token stored only sealed, and refuses bad or duplicate hosts', async () => {
    const { registry, path, auditStore } = fixture();
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
    const [added] = await auditStore.page(0, 100);
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
    const { registry, store } = fixture();
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
    const { registry, store, addRunningHost } = fixture();
    const base = { labels: { os: 'linux' }, capacity: 4 };
    const good = await addRunningHost({ ...base, name: 'good' });
    for (const taskId of ['t1', 't2'])
      await good.hostd.manager.create({ taskId, allowedDomains: ['example.com'] });
    // `wrong`'s hostd was configured with another host's token.
    await addRunningHost({ ...base, name: 'wrong' }, good.token);
    await registry.add({ ...base, name: 'dead', url: 'http://127.0.0.1:1' }, 'cli');
    const monitor = createHostMonitor({
      registry,
      store,
      logger: silentLogger,
      now: () => fleet.clock.now,
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

    fleet.clock.now += 20_001;
    assert.equal((await registry.list()).find((h) => h.name === 'good')?.health, 'down');
  });

  it('drain keeps a host listed but not active until resumed; remove refuses a busy host unless forced, and is audited', async () => {
    const { registry, store, auditStore } = fixture();
    await registry.add({ name: 'h', url: 'http://10.0.0.5:7300', labels: {}, capacity: 2 }, 'cli');
    await store.beat('h', { at: fleet.clock.now, clones: 1 });
    assert.equal((await registry.drain('h', 'tenant:default/ops')).state, 'draining');
    assert.equal((await registry.resume('h', 'cli')).state, 'active');
    await registry.drain('h', 'cli');
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
    const types = (await auditStore.page(0, 100)).map((row) => `${row.type}:${row.actor}`);
    assert.deepEqual(types, [
      'host-added:cli',
      'host-drained:tenant:default/ops',
      'host-resumed:cli',
      'host-drained:cli',
      'host-removed:cli',
    ]);
  });
});
