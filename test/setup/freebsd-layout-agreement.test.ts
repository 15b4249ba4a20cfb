// One FreeBSD host layout for setup, hostd's driver and `--verify-host`: with non-default names in
// hostd's CLAWDIE_HOSTD_* variables, setup plans exactly the dataset, mountpoint, template snapshot,
// PF anchor and interface group the driver then uses over a host prepared that way, and
// `--verify-host` (hostd's config and driver selection) passes over that host and fails over a host
// prepared with the default names.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChildRegistry, SpawnLauncher } from '@clawdie/kit/runner';
import { loadConfig } from '../../hostd/src/config.js';
import { createDriver } from '../../hostd/src/drivers/select-driver.js';
import { loadSetupConfig, SetupConfigError } from '../../setup/src/config.js';
import { DEFAULT_PREPARED, type PreparedLayout } from '../hostd/freebsd/fake/state.js';
import { FakeFreeBSD } from '../hostd/freebsd/fake-freebsd.js';
import { DEFAULT_ROUTE, everythingMissing, RecordingRunner, runScripted } from './setup-fixture.js';
import { FAKE_FREEBSD_NOTES, LoopbackReachDriver } from './support/loopback-reach-driver.js';
import { runVerify } from './support/run-verify-cli.js';

const ENV = {
  CLAWDIE_HOSTD_ZFS_TASKS_DATASET: 'tank/clawdie/tasks',
  CLAWDIE_HOSTD_JAILS_ROOT: '/srv/clawdie/jails',
  CLAWDIE_HOSTD_TEMPLATE_SNAPSHOT: 'tank/bastille/jails/webtpl/root@hostd-g0003',
  CLAWDIE_HOSTD_PF_ANCHOR: 'clawdie',
  CLAWDIE_HOSTD_INTERFACE_GROUP: 'clawtask',
  CLAWDIE_HOSTD_QUOTA: '3G',
};
const PREPARED: PreparedLayout = {
  tasksDataset: ENV.CLAWDIE_HOSTD_ZFS_TASKS_DATASET,
  jailsRoot: ENV.CLAWDIE_HOSTD_JAILS_ROOT,
  templateSnapshot: ENV.CLAWDIE_HOSTD_TEMPLATE_SNAPSHOT,
  pfAnchor: ENV.CLAWDIE_HOSTD_PF_ANCHOR,
  interfaceGroup: ENV.CLAWDIE_HOSTD_INTERFACE_GROUP,
};

/** A scripted host whose prerequisites hold for `layout`'s PF names; everything else missing. */
function scriptedHost(layout: PreparedLayout) {
  return new RecordingRunner([
    { match: '/usr/bin/uname -s', reply: { stdout: 'FreeBSD\n' } },
    { match: '/usr/bin/id -u', reply: { stdout: '0\n' } },
    { match: /^\/sbin\/sysctl -n /, reply: { stdout: '1\n' } },
    { match: '/sbin/pfctl -s info', reply: { stdout: 'Status: Enabled for 0 days\n' } },
    {
      match: '/sbin/pfctl -sr',
      reply: {
        stdout: `anchor "${layout.pfAnchor}/*" all\nblock drop log quick on ${layout.interfaceGroup} all\n`,
      },
    },
    {
      match:
        '/bin/test -f /opt/clawdie/jail-service/dist/main.js -a -f /opt/clawdie/kit/dist/jail-api/index.js',
      reply: {},
    },
    { match: '/sbin/route -n get default', reply: { stdout: DEFAULT_ROUTE } },
    { match: '/usr/sbin/sysrc -n ifconfig_vtnet0', reply: { stdout: 'DHCP\n' } },
    ...everythingMissing,
  ]);
}

function driverOver(fake: FakeFreeBSD, env: Record<string, string>) {
  const config = loadConfig({ ...env, CLAWDIE_HOSTD_TOKEN: 'x'.repeat(32) }, undefined, 'freebsd');
  return createDriver(config, {
    runner: fake.runner,
    launcher: new SpawnLauncher(new ChildRegistry()),
    files: fake.files,
    healthCheck: fake.healthCheck,
  });
}

describe('FreeBSD host layout: setup, driver and --verify-host agree', () => {
  it("setup plans hostd's non-default names, and the driver uses exactly those over a host prepared so", async () => {
    const setup = loadSetupConfig(
      ENV,
      { os: 'freebsd', 'dry-run': true },
      'freebsd',
      '/opt/clawdie',
    );
    const { result, output } = await runScripted(setup, scriptedHost(PREPARED));
    assert.equal(result.ok, true, output.join('\n'));
    const plan = output.join('\n');
    const snapshot = '/sbin/zfs snapshot tank/bastille/jails/webtpl/root@hostd-g0003';
    const dataset = '/sbin/zfs create -p -o mountpoint=/srv/clawdie/jails tank/clawdie/tasks';
    for (const line of [snapshot, dataset]) assert.ok(output.includes(line), line);
    assert.match(plan, /bastille_zfs_zpool=tank$/m);
    assert.match(plan, /bastille create -T -V webtpl /);
    assert.match(
      plan,
      /^# pf-hostd-anchor: .* clawdie anchors and blocks clawtask \(quick\) \(ok\)$/m,
    );
    assert.doesNotMatch(plan, /zroot|hostdtask|"hostd\/\*"|browser/);

    // The same PF check refuses a ruleset made for the default names.
    const defaults = await runScripted(setup, scriptedHost(DEFAULT_PREPARED));
    assert.equal(defaults.result.ok, false);
    assert.match(
      defaults.output.join('\n'),
      /anchor "clawdie\/\*".*block drop log quick on clawtask/,
    );

    const fake = new FakeFreeBSD(PREPARED);
    const driver = driverOver(fake, ENV);
    assert.deepEqual(await driver.preflight?.(), []);
    assert.deepEqual(await driver.probe(), { level: 'full', reasons: [] });
    await driver.create(1, {
      taskId: 't',
      allowedDomains: [],
      limits: { memoryMb: 1024, pids: 128, cpuPercent: 100 },
      display: false,
    });
    await driver.start('browsertask001', { egressProxyUrl: null });
    assert.deepEqual((await driver.destroy('browsertask001')).leftovers, []);
    const clone = fake.plan.find((line) => line.startsWith('/sbin/zfs clone '));
    assert.match(clone ?? '', / -o quota=3G /);
    // The driver clones the snapshot setup makes, below the dataset setup creates and mounts.
    assert.ok(clone?.endsWith(` ${snapshot.split(' ').at(-1)} tank/clawdie/tasks/browsertask001`));
    assert.ok(
      fake.plan.some((line) => line.startsWith('/sbin/pfctl -a clawdie/browsertask001 -f')),
    );
    assert.ok(fake.plan.some((line) => line.endsWith(' up group clawtask')));
    const conf = fake.plan.find((line) => line.includes('browsertask001.conf'));
    assert.ok(conf, 'jail.conf written');
    assert.deepEqual(fake.residue(), []);
  });

  it('--verify-host uses the same names: passes over the host setup prepared, fails over a default one', async () => {
    const verify = (fake: FakeFreeBSD) =>
      runVerify({
        env: ENV,
        verifyDriver: (config) => {
          assert.equal(config.freebsd.tasksDataset, 'tank/clawdie/tasks');
          return new LoopbackReachDriver(driverOver(fake, ENV));
        },
        verifyNotes: FAKE_FREEBSD_NOTES,
      });
    const prepared = new FakeFreeBSD(PREPARED);
    const passed = await verify(prepared);
    assert.equal(passed.code, 0, passed.text);
    assert.ok(prepared.plan.some((line) => line.includes(' tank/clawdie/tasks/browsertask001')));
    assert.deepEqual(prepared.residue(), []);

    const unprepared = new FakeFreeBSD(DEFAULT_PREPARED);
    const failed = await verify(unprepared);
    assert.equal(failed.code, 1, failed.text);
    assert.match(failed.text, /^FAIL +isolation is full .*clawdie\/\*/m);
    assert.match(
      failed.text,
      /^FAIL +host prepared as hostd's configuration names it .*tank\/bastille\/jails\/webtpl\/root@hostd-g0003/m,
    );
    assert.deepEqual(unprepared.residue(), []);
  });

  it('refuses a template snapshot Bastille cannot build and a generation hostd would not clone', () => {
    const load = (env: Record<string, string>, generation?: string) =>
      loadSetupConfig(
        env,
        { os: 'freebsd', ...(generation ? { generation } : {}) },
        'freebsd',
        '/r',
      );
    assert.throws(
      () => load({ CLAWDIE_HOSTD_TEMPLATE_SNAPSHOT: 'tank/templates/web@hostd-g0001' }),
      (error) => error instanceof SetupConfigError && /<pool>\/bastille\/jails/.test(error.message),
    );
    assert.throws(() => load(ENV, 'g0004'), /disagrees with CLAWDIE_HOSTD_TEMPLATE_SNAPSHOT/);
    assert.throws(() => load({ CLAWDIE_HOSTD_PF_ANCHOR: 'a/b' }), SetupConfigError);
    assert.equal(load(ENV).freebsd.templateSnapshot, ENV.CLAWDIE_HOSTD_TEMPLATE_SNAPSHOT);
    assert.equal(
      load({}, 'g0002').freebsd.templateSnapshot,
      'zroot/bastille/jails/browser/root@hostd-g0002',
    );
  });
});
