// Placing tasks' clones over a fleet: real hostd apps on loopback (fake clone driver), each
// reached through the real hostd browser provider with its own host's token.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { HostdClient } from '@clawdie/hostd/client';
import type { BrowserLease } from '../../../controlplane/src/browser/provider/browser-provider.js';
import { createHostdBrowserProvider } from '../../../controlplane/src/browser/provider/hostd-browser-provider.js';
import { createFleetBrowserProvider } from '../../../controlplane/src/fleet/fleet-browser-provider.js';
import { createHostMonitor } from '../../../controlplane/src/fleet/host-monitor.js';
import { silentLogger } from '../../support/silent-logger.js';
import { createFleetFixture } from './fleet-fixture.js';

const fleet = createFleetFixture();
after(() => fleet.close());

/**
 * `readMs`: how long each read of the hosts takes, as over a network to PostgreSQL. `silent`:
 * the hosts whose hostd does not answer (hostAnswers), with `lossGraceMs` for the heartbeat.
 * `waitMs`: how long a task waits for a slot while the fitting hosts are full.
 */
async function twoHosts(
  capacities: [number, number],
  readMs = 0,
  silent?: { hosts: Set<string>; lossGraceMs: number },
  waitMs = 0,
) {
  const opened = fleet.openRegistry();
  const a = await opened.addRunningHost({
    name: 'a',
    labels: { os: 'linux' },
    capacity: capacities[0],
  });
  const b = await opened.addRunningHost({
    name: 'b',
    labels: { os: 'freebsd', display: 'yes' },
    capacity: capacities[1],
  });
  const monitor = createHostMonitor({
    registry: opened.registry,
    store: opened.store,
    logger: silentLogger,
    now: () => fleet.clock.now,
  });
  await monitor.beatAll();
  const revoked: string[] = [];
  const provider = createFleetBrowserProvider({
    registry: {
      endpoint: opened.registry.endpoint,
      list: async () => {
        const hosts = await opened.registry.list();
        await delay(readMs);
        return hosts;
      },
    },
    concurrency: 8,
    // Full hosts refuse at once here; the waiting case sets its own provider's wait.
    placementWaitMs: waitMs,
    revokeOrphans: async (host) => {
      revoked.push(host);
    },
    providerFor: (_host, endpoint) =>
      createHostdBrowserProvider({
        client: new HostdClient({ baseUrl: endpoint.url, token: endpoint.token }),
        logger: silentLogger,
        relay: { baseUrl: endpoint.url, token: endpoint.token },
      }),
    ...(silent
      ? {
          hostAnswers: async (host: string) => !silent.hosts.has(host),
          lossGraceMs: silent.lossGraceMs,
        }
      : {}),
  });
  const tasksOn = async (host: typeof a) =>
    (await host.hostd.manager.list()).map((clone) => clone.taskId).sort();
  return { ...opened, a, b, monitor, provider, tasksOn };
}

const acquire = (
  provider: ReturnType<typeof createFleetBrowserProvider>,
  taskId: string,
  display = false,
) => provider.acquire({ taskId, allowedDomains: ['example.com'], display });

describe('the fleet browser provider', () => {
  it('spreads clones by free capacity, each made on its host with that host’s token, until all are full', async () => {
    const { provider, a, b, tasksOn } = await twoHosts([1, 2]);
    const leases: BrowserLease[] = [];
    for (const taskId of ['t1', 't2', 't3']) leases.push(await acquire(provider, taskId));
    assert.deepEqual(
      leases.map((lease) => lease.id.split('/')[0]),
      ['b', 'a', 'b'],
    );
    assert.deepEqual(await tasksOn(a), ['t2']);
    assert.deepEqual(await tasksOn(b), ['t1', 't3']);
    await assert.rejects(acquire(provider, 't4'), (error: { code?: string; message: string }) => {
      assert.equal(error.code, 'FLEET_NO_HOST');
      assert.match(error.message, /a: full \(1\/1\); b: full \(2\/2\)/);
      return true;
    });
    await leases[0]?.release();
    assert.deepEqual(await tasksOn(b), ['t3']);
    assert.equal((await acquire(provider, 't5')).id.split('/')[0], 'b');
    assert.deepEqual(Object.fromEntries(provider.leases()), { a: 1, b: 2 });
  });

  it('queues a task while every fitting host is full, until a lease ends (or the task is aborted)', async () => {
    const { provider, tasksOn, a } = await twoHosts([1, 1], 0, undefined, 10_000);
    const first = await acquire(provider, 'q1');
    const second = await acquire(provider, 'q2');
    let third: BrowserLease | null = null;
    const waiting = acquire(provider, 'q3').then((lease) => {
      third = lease;
      return lease;
    });
    await delay(300);
    assert.equal(third, null, 'no slot yet: the task waits');
    const firstHost = first.id.split('/')[0];
    await first.release();
    assert.equal((await waiting).id.split('/')[0], firstHost);
    await second.release();
    assert.ok((await tasksOn(a)).length <= 1);
    const extra = await acquire(provider, 'q4');
    const aborted = new AbortController();
    const pending = provider.acquire({ taskId: 'q5', allowedDomains: [], signal: aborted.signal });
    await delay(100);
    aborted.abort();
    await assert.rejects(pending, { name: 'AbortError' });
    await extra.release();
  });

  it('gives the last free slot to one of two tasks that start together', async () => {
    const { provider, registry, a, tasksOn } = await twoHosts([1, 1], 30);
    await registry.drain('b', 'test');
    const results = await Promise.allSettled([acquire(provider, 'x1'), acquire(provider, 'x2')]);
    assert.deepEqual(results.map((result) => result.status).sort(), ['fulfilled', 'rejected']);
    assert.equal((await tasksOn(a)).length, 1);
  });

  it('counts clones other controlplanes hold on a host, from its heartbeat', async () => {
    const { provider, a, b, monitor, tasksOn } = await twoHosts([2, 2]);
    // Another controlplane's two tasks fill host b; this one only learns it from the heartbeat.
    for (const taskId of ['o1', 'o2'])
      await b.hostd.manager.create({ taskId, allowedDomains: ['example.com'] });
    await monitor.beatAll();
    assert.equal((await acquire(provider, 'y1')).id.split('/')[0], 'a');
    assert.equal((await acquire(provider, 'y2')).id.split('/')[0], 'a');
    await assert.rejects(acquire(provider, 'y3'), /b: full \(2\/2\)/);
    assert.deepEqual(await tasksOn(a), ['y1', 'y2']);
  });

  it('sends a desktop task only to a host with displays, and never to a drained or silent one', async () => {
    const { provider, registry, b } = await twoHosts([4, 4]);
    assert.equal((await acquire(provider, 'd1', true)).id.split('/')[0], 'b');
    await registry.drain('b', 'test');
    await assert.rejects(acquire(provider, 'd2', true), /a: lacks display=yes; b: draining/);
    fleet.clock.now += 60_000;
    await assert.rejects(acquire(provider, 'd3'), /a: down; b: down/);
    assert.equal((await b.hostd.manager.list()).length, 1);
  });

  it('places a task that asks for host labels only on a host carrying them all', async () => {
    const { provider, a, b } = await twoHosts([4, 4]);
    const on = async (taskId: string, labels: Record<string, string>) =>
      (await provider.acquire({ taskId, allowedDomains: ['example.com'], labels })).id.split(
        '/',
      )[0];
    // a is the less loaded after the first lease; the labels still send every task to b.
    assert.equal(await on('f1', { os: 'freebsd' }), 'b');
    assert.equal(await on('f2', { os: 'freebsd' }), 'b');
    assert.equal(await on('l1', { os: 'linux' }), 'a');
    await assert.rejects(
      provider.acquire({ taskId: 'r1', allowedDomains: ['example.com'], labels: { region: 'eu' } }),
      /a: lacks region=eu; b: lacks region=eu/,
    );
    assert.deepEqual((await b.hostd.manager.list()).map((clone) => clone.taskId).sort(), [
      'f1',
      'f2',
    ]);
    assert.deepEqual(
      (await a.hostd.manager.list()).map((clone) => clone.taskId),
      ['l1'],
    );
  });

  it('a failed call on a silent host waits for the heartbeat to lose it (HOST_LOST); elsewhere it fails as it is', async () => {
    const silent = { hosts: new Set<string>(), lossGraceMs: 400 };
    const { provider, a, b } = await twoHosts([4, 4], 0, silent);
    const lease = await acquire(provider, 's1');
    const host = lease.id.split('/')[0] ?? '';
    const hostd = (host === 'a' ? a : b).hostd;
    assert.ok(lease.service?.url.startsWith(`${hostd.url}/clones/`), 'through the host’s relay');
    // The fake clone's jail-service does not exist: hostd's relay answers 502.
    await assert.rejects(lease.operator.screenshot(), { code: 'OPERATOR_UNAVAILABLE' });
    silent.hosts.add(host);
    let started = performance.now();
    await assert.rejects(lease.operator.screenshot(), { code: 'OPERATOR_UNAVAILABLE' });
    assert.ok(performance.now() - started >= 350, 'the heartbeat had the grace to decide');
    started = performance.now();
    const call = lease.operator.screenshot();
    setTimeout(() => void provider.hostChanged({ host, to: 'lost', detail: 'gone' }), 50);
    await assert.rejects(call, {
      code: 'HOST_LOST',
      message: `jail host ${host} stopped answering: gone`,
    });
    assert.ok(performance.now() - started < 350, 'ended by the verdict, not the grace');
  });
});
