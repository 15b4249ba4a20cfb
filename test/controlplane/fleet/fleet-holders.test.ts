// Several controlplanes on one set of jail hosts: each names itself on the leases it takes, and
// revokes only the leases of controlplanes that are gone. Two controlplanes on one data directory
// (the instance registry and host registry they share), built by the real composition root, with
// real hostd apps on loopback (fake clones).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { Config } from '../../../controlplane/src/config.js';
import { runHostsCommand } from '../../../controlplane/src/ingress/cli/hosts-command.js';
import { createTestControlplane, testConfig } from '../../support/controlplane.js';
import { startHostd } from './fleet-fixture.js';

const HEARTBEAT_MS = 500;
const closers: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const close of closers.reverse()) await close();
});

/** A data directory of its own (removed at the end), so a controlplane's close leaves it. */
function sharedConfig(env: Record<string, string>): Readonly<Config> {
  const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-holders-'));
  closers.push(() => rmSync(dataDir, { recursive: true, force: true }));
  return testConfig({ CLAWDIE_DATA_DIR: dataDir, ...env });
}

/** A fleet of one registered host (`clawdie hosts add`) whose hostd accepts its token. */
async function fleetOfOne() {
  const config = sharedConfig({
    CLAWDIE_FLEET: 'on',
    CLAWDIE_FLEET_HEARTBEAT_MS: String(HEARTBEAT_MS),
  });
  const hostd = await startHostd();
  closers.push(hostd.close);
  let token = '';
  const add = { name: 'hosts-add', host: 'h1', url: hostd.url, labels: {}, capacity: 4 } as const;
  assert.equal(await runHostsCommand(add, config, (text) => (token += text)), 0);
  hostd.useToken(token.trim());
  return { config, hostd };
}

async function replica(config: Readonly<Config>) {
  const controlplane = await createTestControlplane({ config, browsers: 'config' });
  closers.push(controlplane.close);
  return controlplane;
}

/** The task's `clone-destroyed` rows, once there is one (the audit follows the revoke). */
async function destroyedRows(controlplane: Awaited<ReturnType<typeof replica>>, taskId: string) {
  for (let waited = 0; ; waited += 50) {
    const rows = (await controlplane.audit.list({ taskId, limit: 10 })).filter(
      (row) => row.type === 'clone-destroyed',
    );
    if (rows.length > 0 || waited > 3000) return rows;
    await delay(50);
  }
}

const acquire = (controlplane: Awaited<ReturnType<typeof replica>>, taskId: string) =>
  controlplane.source.provider.acquire({ taskId, allowedDomains: ['example.com'] });

describe('controlplane replicas sharing jail hosts', () => {
  it('a replica that starts leaves a live replica’s clone alone (fleet)', async () => {
    const { config, hostd } = await fleetOfOne();
    const first = await replica(config);
    const lease = await acquire(first, 'first-task');

    const second = await replica(config);
    await delay(HEARTBEAT_MS * 2.5);
    assert.deepEqual(
      (await hostd.manager.list()).map((each) => each.taskId),
      ['first-task'],
      'neither the start nor the rounds after it destroyed the live replica’s clone',
    );
    // Each replica names itself: the second's clone carries another holder.
    await acquire(second, 'second-task');
    const holders = new Set((await hostd.manager.list()).map((each) => each.holder));
    assert.equal(holders.size, 2);
    assert.ok(!holders.has(null), 'every lease names its controlplane');
    await lease.release();
  });

  it('a replica that is gone has its clones destroyed within a heartbeat round, audited to each task', async () => {
    const { config, hostd } = await fleetOfOne();
    const first = await replica(config);
    const second = await replica(config);
    await acquire(first, 'dying-task');
    const kept = await acquire(second, 'living-task');
    const cloneOf = async (taskId: string) =>
      (await hostd.manager.list()).find((each) => each.taskId === taskId);
    const gone = (await cloneOf('dying-task'))?.holder;
    // The first replica stops without releasing its lease (as if killed): its row is gone.
    await first.close();
    assert.ok(await cloneOf('dying-task'), 'its clone outlived it');

    const died = performance.now();
    while ((await cloneOf('dying-task')) && performance.now() - died < 5000) await delay(50);
    const reapedMs = performance.now() - died;
    assert.equal(await cloneOf('dying-task'), undefined, 'destroyed by the next round');
    assert.ok(reapedMs < HEARTBEAT_MS * 2 + 1000, `reaped after ${reapedMs.toFixed(0)} ms`);
    assert.ok(await cloneOf('living-task'), 'the live replica’s clone stays');
    const [destroyed] = await destroyedRows(second, 'dying-task');
    assert.equal(destroyed?.data.reason, 'holder replica gone');
    assert.equal(destroyed?.data.holder, gone);
    assert.equal(destroyed?.data.host, 'h1');
    console.error(`# fleet holders: a gone replica's clone reaped ${reapedMs.toFixed(0)} ms after`);
    await kept.release();
  });

  it('a controlplane starting on one hostd leaves a live one’s clone, and reaps it once that one is gone', async () => {
    const token = 'hostd-token-0123456789abcdef';
    const hostd = await startHostd(token);
    closers.push(hostd.close);
    const config = sharedConfig({
      CLAWDIE_HOSTD_URL: hostd.url,
      CLAWDIE_HOSTD_TOKEN: token,
      CLAWDIE_FLEET_HEARTBEAT_MS: String(HEARTBEAT_MS),
    });
    const first = await replica(config);
    await acquire(first, 'running-task');
    const second = await replica(config);
    assert.deepEqual(
      (await hostd.manager.list()).map((each) => each.taskId),
      ['running-task'],
    );
    await first.close();
    for (let waited = 0; waited < 5000; waited += 50) {
      if ((await hostd.manager.list()).length === 0) break;
      await delay(50);
    }
    assert.deepEqual(await hostd.manager.list(), [], 'reaped by the live controlplane');
    const reasons = (await destroyedRows(second, 'running-task')).map((row) => row.data.reason);
    assert.deepEqual(reasons, ['holder replica gone']);
  });
});
