// The FreeBSD commands are the real tools' commands: every argv in the golden plans, every argv the
// setup steps can run or plan, and the rendered jail.conf pass the grammar table read from the tools'
// sources (grammar/, SOURCES); the validator rejects what the real tools reject; and the fake host
// refuses any argv outside the grammar, so every driver test (contract, faults, interleavings,
// crash-restart, plans) fails on an option the real tool would reject.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { setupSteps } from '../../../setup/src/cli.js';
import {
  config,
  everythingMissing,
  prerequisitesMet,
  RecordingRunner,
} from '../../setup/setup-fixture.js';
import { createDriver, FakeFreeBSD, spec } from './driver-fixture.js';
import { bsdGetopt } from './grammar/getopt.js';
import { validateJailConf } from './grammar/jail-conf.js';
import { SOURCES } from './grammar/sources.js';
import { validateArgv } from './grammar/validate-argv.js';

const here = dirname(fileURLToPath(import.meta.url));
const goldenDirs = [join(here, 'golden'), join(here, '..', '..', 'setup', 'golden')];
const words = (line: string) => line.split(' ');

describe('grammar: the commands we run', () => {
  it('accepts every command line of every FreeBSD golden plan', () => {
    let checked = 0;
    for (const dir of goldenDirs) {
      for (const file of readdirSync(dir).filter((f) => /\.txt$/.test(f) && !/^linux-/.test(f))) {
        for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
          if (!line.startsWith('/')) continue;
          assert.deepEqual(validateArgv(words(line)), [], `${file}: ${line}`);
          checked += 1;
        }
      }
    }
    assert.ok(checked > 100, `only ${checked} command lines checked`);
  });

  it('accepts the rendered jail.conf: parameter names and exec.start commands', () => {
    for (const file of ['browsertask007.conf', 'browsertask007-desktop.conf']) {
      const conf = readFileSync(join(here, 'golden', file), 'utf8');
      assert.deepEqual(validateJailConf(conf), [], file);
    }
  });

  it('accepts every argv the FreeBSD setup steps probe or plan (exact argv, fresh host)', async () => {
    const runner = new RecordingRunner([...prerequisitesMet, ...everythingMissing]);
    const setup = config('freebsd');
    const planned: (readonly string[])[] = [];
    for (const step of setupSteps(setup)) {
      planned.push(...(await step.check({ runner, config: setup })).plan.map((c) => c.argv));
    }
    const all = [...runner.calls.map((call) => call.argv), ...planned];
    assert.ok(planned.some((argv) => argv.includes('bootstrap')));
    for (const argv of all) assert.deepEqual(validateArgv(argv), [], argv.join(' '));
  });

  it('runs a full lifecycle on the fake host, which checks each argv on the way', async () => {
    const fake = new FakeFreeBSD();
    const driver = createDriver(fake);
    await driver.create(7, spec());
    await driver.start('browsertask007', { egressProxyUrl: 'http://10.78.0.29:3128' });
    await driver.stop('browsertask007');
    await driver.reconcile(() => true);
    assert.deepEqual((await driver.destroy('browsertask007')).leftovers, []);
    assert.ok(fake.commands.length > 40);
  });

  it('names an upstream repository, path and commit for every part of the table', () => {
    for (const [tool, source] of Object.entries(SOURCES)) {
      assert.match(source.repo, /^[\w.-]+\/[\w.-]+$/, tool);
      assert.ok(source.paths.length > 0, tool);
      assert.match(source.commit, /^([0-9a-f]{40}|indexed)$/, tool);
    }
  });
});

describe('grammar: what the real tools reject', () => {
  const rejects = (line: string, pattern: RegExp) => {
    const problems = validateArgv(words(line));
    assert.ok(
      problems.some((p) => pattern.test(p)),
      `${line} → ${JSON.stringify(problems)}`,
    );
  };

  it('parses like BSD getopt: clusters, glued values, `--`, and no options after an operand', () => {
    assert.deepEqual(bsdGetopt(['-rf', '-d1', '--', '-x'], 'rfd:'), {
      options: [{ letter: 'r' }, { letter: 'f' }, { letter: 'd', value: '1' }],
      operands: ['-x'],
      problems: [],
    });
    assert.deepEqual(bsdGetopt(['a', '-r'], 'r').operands, ['a', '-r']);
    assert.deepEqual(bsdGetopt(['-d'], 'd:').problems, ['option requires an argument -- d']);
  });

  it('zfs: unknown option letters, options after operands, bad properties and types', () => {
    rejects('/sbin/zfs clone -x a@s b', /illegal option -- x/);
    rejects('/sbin/zfs clone a@s b -o quota=1G', /too many operands/);
    rejects('/sbin/zfs clone -o Quota=1G a@s b', /bad property "Quota"/);
    rejects('/sbin/zfs clone a b', /not a snapshot/);
    rejects('/sbin/zfs list -t filesystems x', /bad type/);
    rejects('/sbin/zfs destroy -rF x', /illegal option -- F/);
    rejects('/sbin/zfs frobnicate x', /unmodelled subcommand/);
  });

  it('jail, jls and jail.conf: unknown parameters and impossible command lines', () => {
    rejects(
      '/usr/sbin/jail -c name=t path=/x vnet.iface=e0',
      /unknown jail parameter "vnet.iface"/,
    );
    rejects('/usr/sbin/jail -c name=t persist=maybe', /unknown boolean value/);
    rejects('/usr/sbin/jail -r', /usage/);
    rejects('/usr/sbin/jail -n t -r t', /usage/);
    rejects('/usr/sbin/jail -f /x -c t -Z', /too many|unknown jail parameter|illegal/);
    rejects('/usr/sbin/jls -x', /illegal option -- x/);
    rejects('/usr/sbin/jls --libxo', /missing libxo option/);
    rejects('/usr/sbin/jls -j t hostname', /unknown jail parameter "hostname"/);
    const conf =
      't {\n  path = "/x";\n  vnet.interfaces = "e0b";\n  exec.start = "/sbin/ifconfig e0b inet 10.0.0.1/33 up";\n}\n';
    const problems = validateJailConf(conf);
    assert.ok(
      problems.some((p) => /unknown jail parameter "vnet.interfaces"/.test(p)),
      String(problems),
    );
    assert.ok(
      problems.some((p) => /bad inet address/.test(p)),
      String(problems),
    );
  });

  it('rctl: unknown resources and actions, undeniable or incomplete rules, two modes', () => {
    rejects('/usr/bin/rctl -a jail:t:memory:deny=1g', /unknown resource "memory"/);
    rejects('/usr/bin/rctl -a jail:t:maxproc:kill=10', /unknown action "kill"/);
    rejects('/usr/bin/rctl -a jail:t:cputime:deny=10', /cputime cannot be denied/);
    rejects('/usr/bin/rctl -a jail:t:maxproc:throttle=10', /cannot be throttled/);
    rejects('/usr/bin/rctl -a jail:t:maxproc', /not fully specified/);
    rejects('/usr/bin/rctl -a jail:t:memoryuse:deny=2x', /invalid numeric value/);
    rejects('/usr/bin/rctl -a -r jail:t', /at most one of/);
    rejects('/usr/bin/rctl -a container:t:maxproc:deny=1', /unknown subject/);
  });

  it('pfctl: modifiers, anchors and operands', () => {
    rejects('/sbin/pfctl -s Bogus', /Unknown show modifier/);
    rejects('/sbin/pfctl -a hostd/t -F everything', /Unknown flush modifier/);
    rejects('/sbin/pfctl -a _hostd/t -F rules', /beginning with '_'/);
    rejects('/sbin/pfctl -a hostd/t -v', /anchors apply to/);
    rejects('/sbin/pfctl -a hostd/t -f /x extra', /unknown command line argument/);
    rejects('/sbin/pfctl -k a -k b -k c', /only specify -k twice/);
    rejects('/sbin/pfctl -t t', /-t and -T go together/);
  });

  it('ifconfig, mount, sysctl, pw, pkg and bastille', () => {
    rejects('/sbin/ifconfig bt007a up group hostd1', /may not end in a digit/);
    rejects('/sbin/ifconfig bt007a inet 10.0.0.1/30 upp', /unknown keyword "upp"/);
    rejects('/sbin/ifconfig epair1007a name averyveryverylongname', /longer than 15/);
    rejects('/sbin/mount -P', /illegal option -- P/);
    rejects('/sbin/umount', /mount point xor/);
    rejects('/sbin/umount -a /x', /mount point xor/);
    rejects('/sbin/umount -f -n /x', /mutually exclusive/);
    rejects('/sbin/sysctl -Z kern.racct.enable', /illegal option -- Z/);
    rejects('/usr/sbin/pw -R /r useradd u -Z 1', /illegal option -- Z/);
    rejects('/usr/sbin/pkg install -y', /missing operand/);
    rejects('/usr/sbin/pkg install bastille -y', /without a leading -y/);
    rejects('/usr/local/bin/bastille create -X t 14.3-RELEASE 10.0.0.2 em0', /Unknown Option/);
    rejects('/usr/local/bin/bastille start', /usage/);
    rejects('/usr/sbin/sysrc -f /x -k bastille_zfs_enable', /illegal option -- k/);
    rejects('/usr/sbin/sysrc -f /x', /missing operand/);
    rejects('/bin/mkdir -P /x', /illegal option -- P/);
    rejects('/usr/bin/true', /not in the grammar table/);
  });

  it('Xvfb, and the commands daemon(8) and env(1) run', () => {
    rejects('/usr/local/bin/Xvfb :0 -screen 0 1280x800', /Invalid screen configuration/);
    rejects('/usr/local/bin/Xvfb :0 -screen 255 1280x800x24', /Invalid screen number/);
    rejects('/usr/local/bin/Xvfb :a', /Bad display name/);
    rejects('/usr/local/bin/Xvfb :0 -nolisten', /-nolisten needs a value/);
    rejects('/usr/local/bin/Xvfb :0 -geometry 1x1', /Unrecognized option: -geometry/);
    rejects('/usr/sbin/daemon -u u /usr/local/bin/Xvfb :0 -nocursors', /Unrecognized option/);
    rejects('/usr/sbin/daemon -u u /usr/bin/Xvfb :0', /\/usr\/bin\/Xvfb: not in the grammar/);
    rejects('/usr/sbin/daemon /usr/bin/env A=1 /bin/mkdir -P /x', /illegal option -- P/);
    assert.deepEqual(validateArgv(words('/usr/bin/env A=1 B=2')), []);
  });

  it('the fake host refuses an argv the real tool would reject', async () => {
    const fake = new FakeFreeBSD();
    await assert.rejects(
      fake.runner.run(['/sbin/zfs', 'clone', '-x', 'a@b', 'c'], { timeoutMs: 1000 }),
      /illegal option -- x/,
    );
    await assert.rejects(
      fake.runner.run(['/usr/bin/rctl', '-a', 'jail:t:memory:deny=1g'], { timeoutMs: 1000 }),
      /unknown resource/,
    );
  });
});
