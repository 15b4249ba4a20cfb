// What `clawdie setup` reads from a FreeBSD host before it builds anything (issue #26 point 5):
// the template's network from the default route and rc.conf (never a vtnet0/SYNCDHCP guess), the
// controlplane's host user (rc.d would otherwise restart daemon(8) every 5 s), and no check of
// kern.ipc.shm_allow_removed (1 by default in sys/kern/sysv_shm.c). Scripted hosts, not FreeBSD.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setupSteps } from '../../setup/src/cli.js';
import { loadSetupConfig } from '../../setup/src/config.js';
import { parseRouteInterface, templateIpFor } from '../../setup/src/steps/template-network.js';
import { validateArgv } from '../hostd/freebsd/grammar/validate-argv.js';
import type { ScriptedReply } from '../support/recording-runner.js';
import {
  config,
  DEFAULT_ROUTE,
  everythingMissing,
  prerequisitesMet,
  RecordingRunner,
  runScripted,
} from './setup-fixture.js';

const TEMPLATE_NETWORK = /^\/sbin\/route |^\/usr\/sbin\/sysrc -n ifconfig_/;

/** A fresh host (dry run) whose network answers are `network`, the other prerequisites met. */
async function freshHost(network: ScriptedReply[], flags: Record<string, string> = {}) {
  const setup = loadSetupConfig(
    {},
    { os: 'freebsd', 'dry-run': true, ...flags },
    'freebsd',
    '/opt/clawdie',
  );
  const met = prerequisitesMet.filter((reply) => !TEMPLATE_NETWORK.test(String(reply.match)));
  const runner = new RecordingRunner([...network, ...met, ...everythingMissing]);
  const { result, output } = await runScripted(setup, runner);
  const step = result.steps.find((s) => s.id === 'template-jail');
  return { step, output, runner };
}

const route = (iface: string): ScriptedReply => ({
  match: '/sbin/route -n get default',
  reply: { stdout: DEFAULT_ROUTE.replace('interface: vtnet0', `interface: ${iface}`) },
});

describe('setup: the template network', () => {
  it('reads the interface from route -n get default', () => {
    assert.equal(parseRouteInterface(DEFAULT_ROUTE), 'vtnet0');
    assert.equal(parseRouteInterface('route: route has not been found\n'), null);
  });

  it('takes SYNCDHCP only for a DHCP interface and refuses a static or unset one, naming the flag', () => {
    assert.deepEqual(templateIpFor('em0', 'DHCP\n'), { iface: 'em0', ip: 'SYNCDHCP' });
    assert.deepEqual(templateIpFor('wlan0', 'WPA SYNCDHCP\n'), { iface: 'wlan0', ip: 'SYNCDHCP' });
    const fixed = templateIpFor('igb0', 'inet 192.0.2.10 netmask 255.255.255.0\n');
    assert.match(
      'problem' in fixed ? fixed.problem : '',
      /igb0 has a static address .*--template-ip/,
    );
    const unset = templateIpFor('igb0', null);
    assert.match('problem' in unset ? unset.problem : '', /ifconfig_igb0 is not set/);
  });

  it('plans bastille create on the default route interface (igb0), not vtnet0', async () => {
    const { step, output } = await freshHost([
      route('igb0'),
      { match: '/usr/sbin/sysrc -n ifconfig_igb0', reply: { stdout: 'DHCP\n' } },
    ]);
    assert.equal(step?.outcome, 'planned');
    assert.ok(
      output.includes('/usr/local/bin/bastille create -T -V browser 14.3-RELEASE SYNCDHCP igb0'),
    );
  });

  it('refuses a host with a static address unless --template-ip is given', async () => {
    const network = [
      route('igb0'),
      { match: '/usr/sbin/sysrc -n ifconfig_igb0', reply: { stdout: 'inet 192.0.2.10/24\n' } },
    ];
    const refused = await freshHost(network);
    assert.equal(refused.step?.outcome, 'failed');
    assert.match(refused.step?.message ?? '', /igb0 has a static address.*--template-ip/);
    const given = await freshHost(network, { 'template-ip': '192.0.2.20/24' });
    assert.equal(given.step?.outcome, 'planned');
    assert.ok(
      given.output.includes(
        '/usr/local/bin/bastille create -T -V browser 14.3-RELEASE 192.0.2.20/24 igb0',
      ),
    );
    assert.ok(!given.runner.commandLines().some((line) => line.includes('sysrc -n ifconfig_')));
  });

  it('refuses a host without a default route unless --interface is given', async () => {
    const noRoute: ScriptedReply = {
      match: '/sbin/route -n get default',
      reply: { exitCode: 1, stderr: 'route: route has not been found\n' },
    };
    const refused = await freshHost([noRoute]);
    assert.equal(refused.step?.outcome, 'failed');
    assert.match(
      refused.step?.message ?? '',
      /no default route \(route: route has not been found\).*--interface/,
    );
    const given = await freshHost(
      [noRoute, { match: '/usr/sbin/sysrc -n ifconfig_em1', reply: { stdout: 'SYNCDHCP\n' } }],
      { interface: 'em1' },
    );
    assert.equal(given.step?.outcome, 'planned');
  });
});

describe('setup: the controlplane host user and the removed shm check', () => {
  it('creates the user rc.d runs the controlplane as when it is missing, and only then', async () => {
    const setup = config('freebsd', true);
    const step = setupSteps(setup).find((s) => s.id === 'controlplane-user');
    assert.ok(step, 'a controlplane-user step');
    const missing = new RecordingRunner([
      {
        match: '/usr/sbin/pw usershow clawdie',
        reply: { exitCode: 67, stderr: "pw: no such user `clawdie'\n" },
      },
    ]);
    const planned = await step.check({ runner: missing, config: setup });
    assert.equal(planned.done, false);
    const argv = planned.plan.map((command) => command.argv);
    assert.deepEqual(argv, [
      [
        '/usr/sbin/pw',
        'useradd',
        'clawdie',
        '-c',
        'Clawdie',
        '-d',
        '/nonexistent',
        '-s',
        '/usr/sbin/nologin',
        '-w',
        'no',
      ],
    ]);
    for (const words of [...argv, ['/usr/sbin/pw', 'usershow', 'clawdie']]) {
      assert.deepEqual(validateArgv(words), [], words.join(' '));
    }
    const present = new RecordingRunner([
      { match: '/usr/sbin/pw usershow clawdie', reply: { stdout: 'clawdie:*:1001\n' } },
    ]);
    assert.equal((await step.check({ runner: present, config: setup })).done, true);
  });

  it('no longer reads kern.ipc.shm_allow_removed', async () => {
    const runner = new RecordingRunner([...prerequisitesMet, ...everythingMissing]);
    await runScripted(config('freebsd', true), runner);
    assert.ok(!runner.commandLines().some((line) => line.includes('shm_allow_removed')));
  });
});
