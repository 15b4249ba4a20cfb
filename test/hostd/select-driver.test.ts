// hostd builds the driver its config picked (platform or CLAWDIE_HOSTD_DRIVER), the FreeBSD one
// with the host layout taken from the config; checked on the in-memory FreeBSD host.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChildRegistry, SpawnLauncher } from '@clawdie/kit/runner';
import { type Environment, loadConfig } from '../../hostd/src/config.js';
import {
  createDriver,
  freeBsdLayout,
  linuxServiceEnv,
} from '../../hostd/src/drivers/select-driver.js';
import { spec } from './freebsd/driver-fixture.js';
import { FakeFreeBSD } from './freebsd/fake-freebsd.js';

const token = { CLAWDIE_HOSTD_TOKEN: 'a-token-of-sixteen-chars' };

function onFakeHost(env: Environment, platform: NodeJS.Platform) {
  const fake = new FakeFreeBSD();
  const config = loadConfig({ ...token, ...env }, undefined, platform);
  const driver = createDriver(config, {
    runner: fake.runner,
    launcher: new SpawnLauncher(new ChildRegistry()),
    files: fake.files,
    healthCheck: fake.healthCheck,
  });
  return { fake, config, driver };
}

describe('hostd driver selection', () => {
  it('builds the FreeBSD driver on FreeBSD, with the layout from the config', async () => {
    const { fake, driver } = onFakeHost({}, 'freebsd');
    assert.equal(driver.kind, 'freebsd');
    assert.deepEqual(await driver.preflight?.(), []);
    assert.deepEqual(await driver.probe(), { level: 'full', reasons: [] });
    await driver.create(7, spec());
    assert.ok(
      fake.plan.includes('/sbin/pfctl -a hostd/browsertask007 -f /var/run/hostd/browsertask007.pf'),
    );
    assert.ok(fake.plan.some((line) => line.endsWith('up group hostdtask')));
  });

  it('builds the Linux driver on Linux, and whichever CLAWDIE_HOSTD_DRIVER names', () => {
    assert.equal(onFakeHost({}, 'linux').driver.kind, 'linux');
    assert.equal(onFakeHost({ CLAWDIE_HOSTD_DRIVER: 'linux' }, 'freebsd').driver.kind, 'linux');
    assert.equal(onFakeHost({ CLAWDIE_HOSTD_DRIVER: 'freebsd' }, 'linux').driver.kind, 'freebsd');
  });

  it("leaves the Linux clones' browser to the jail-service unless CLAWDIE_CHROMIUM_PATH is set", () => {
    const chosen = linuxServiceEnv(loadConfig({ ...token }, undefined, 'linux'));
    assert.equal('CLAWDIE_CHROMIUM_PATH' in chosen, false);
    assert.equal(chosen.CLAWDIE_JAIL_CHROMIUM_SANDBOX, 'auto');
    const pinned = { ...token, CLAWDIE_CHROMIUM_PATH: '/usr/bin/chromium' };
    const env = linuxServiceEnv(loadConfig(pinned, undefined, 'linux'));
    assert.equal(env.CLAWDIE_CHROMIUM_PATH, '/usr/bin/chromium');
  });

  it('maps every FreeBSD variable into the driver layout', () => {
    const config = loadConfig(
      {
        ...token,
        CLAWDIE_HOSTD_ZFS_TASKS_DATASET: 'tank/clawdie/tasks',
        CLAWDIE_HOSTD_JAILS_ROOT: '/clawdie/jails',
        CLAWDIE_HOSTD_TEMPLATE_SNAPSHOT: 'tank/browser/root@hostd-g0002',
        CLAWDIE_HOSTD_PF_ANCHOR: 'clawdie',
        CLAWDIE_HOSTD_INTERFACE_GROUP: 'clawdietask',
        CLAWDIE_HOSTD_QUOTA: '512M',
        CLAWDIE_HOSTD_SERVICE_PORT: '9300',
        CLAWDIE_HOSTD_PROXY_PORT: '3200',
      },
      undefined,
      'freebsd',
    );
    const layout = freeBsdLayout(config);
    assert.deepEqual(
      [layout.tasksDataset, layout.jailsRoot, layout.templateSnapshot, layout.pfAnchor],
      ['tank/clawdie/tasks', '/clawdie/jails', 'tank/browser/root@hostd-g0002', 'clawdie'],
    );
    assert.deepEqual(
      [layout.interfaceGroup, layout.quota, layout.servicePort, layout.proxyPort],
      ['clawdietask', '512M', 9300, 3200],
    );
  });

  it('uses the configured PF anchor, interface group and quota in its commands', async () => {
    const { fake, driver } = onFakeHost(
      {
        CLAWDIE_HOSTD_PF_ANCHOR: 'clawdie',
        CLAWDIE_HOSTD_INTERFACE_GROUP: 'clawdietask',
        CLAWDIE_HOSTD_QUOTA: '512M',
      },
      'freebsd',
    );
    // The fake host's main ruleset still holds the default anchor and group only.
    assert.deepEqual((await driver.probe()).reasons, [
      'the main PF ruleset has no `anchor "clawdie/*"`',
    ]);
    await driver.create(3, spec());
    assert.ok(fake.plan.some((line) => line.includes('-o quota=512M')));
    assert.ok(
      fake.plan.includes(
        '/sbin/pfctl -a clawdie/browsertask003 -f /var/run/hostd/browsertask003.pf',
      ),
    );
    assert.ok(fake.plan.some((line) => line.endsWith('up group clawdietask')));
    assert.deepEqual((await driver.destroy('browsertask003')).leftovers, []);
    assert.deepEqual(fake.residue(), []);
  });

  it('preflight names the missing template snapshot and tasks dataset, with the fix', async () => {
    const { driver } = onFakeHost(
      {
        CLAWDIE_HOSTD_ZFS_TASKS_DATASET: 'tank/clawdie/tasks',
        CLAWDIE_HOSTD_TEMPLATE_SNAPSHOT: 'zroot/bastille/jails/browser/root@hostd-g0009',
      },
      'freebsd',
    );
    const missing = (await driver.preflight?.()) ?? [];
    assert.equal(missing.length, 2);
    assert.match(
      missing[0] ?? '',
      /template snapshot zroot\/bastille\/jails\/browser\/root@hostd-g0009 does not exist \(build the template with `clawdie setup`/,
    );
    assert.match(
      missing[1] ?? '',
      /tasks dataset tank\/clawdie\/tasks does not exist \(zfs create -p -o mountpoint=\/var\/hostd\/jails tank\/clawdie\/tasks/,
    );
  });
});
