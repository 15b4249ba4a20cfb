// The fake FreeBSD host accepts what the real system accepts and rejects what it rejects (issue
// #26 point 6). Each case names the source it was checked against; each failed on the model
// before this file (PF anchors kept verbatim and refused with PF disabled, `sysvshm` and
// `-extension` unknown, a jail path had to be a mount point, `daemon -u` never looked the user
// up, the vnet interface came back at `jail -r`, ifconfig printed CIDR and one `groups:` line per group).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDriver, FakeFreeBSD, spec } from './driver-fixture.js';
import { validateJailConf } from './grammar/jail-conf.js';
import { validateXvfb } from './grammar/xvfb.js';

const NAME = 'browsertask007';
const run = (fake: FakeFreeBSD, line: string) =>
  fake.runner.run(line.split(' '), { timeoutMs: 1000 });
const write = (fake: FakeFreeBSD, path: string, content: string) =>
  fake.files.write(path, content, { mode: 0o600 });

async function started(fake: FakeFreeBSD): Promise<void> {
  const driver = createDriver(fake);
  await driver.create(7, spec());
  await driver.start(NAME, { egressProxyUrl: null });
}

describe('FakeFreeBSD model fidelity: pfctl (sbin/pfctl/parse.y, pfctl.c, pfctl_parser.c)', () => {
  it('loads an anchor while PF is disabled (only -e/-d touch the status)', async () => {
    const fake = new FakeFreeBSD();
    fake.state.pfEnabled = false;
    await write(fake, '/tmp/a.pf', 'block drop quick on bt007a all\n');
    const loaded = await run(fake, '/sbin/pfctl -a hostd/x -f /tmp/a.pf');
    assert.equal(loaded.exitCode, 0, loaded.stderr);
    assert.equal(
      (await run(fake, '/sbin/pfctl -a hostd/x -sr')).stdout,
      'block drop quick on bt007a all\n',
    );
  });

  it('refuses a file with a syntax error as a whole, naming FILE:LINE, and loads nothing', async () => {
    const fake = new FakeFreeBSD();
    const text =
      'block drop quick on bt007a all\npass in quick on bt007a from 10.78.0.30 port 80\n';
    await write(fake, '/tmp/b.pf', text);
    const result = await run(fake, '/sbin/pfctl -a hostd/y -f /tmp/b.pf');
    assert.equal(result.exitCode, 1);
    assert.match(result.stderr, /^\/tmp\/b\.pf:2: port only applies to tcp\/udp$/m);
    assert.match(result.stderr, /Syntax error in config file: pf rules not loaded/);
    assert.equal(fake.state.anchors.has('hostd/y'), false);
    await write(fake, '/tmp/c.pf', 'pass inn quick on bt007a all\n');
    assert.match(
      (await run(fake, '/sbin/pfctl -a hostd/y -f /tmp/c.pf')).stderr,
      /c\.pf:1: syntax error/,
    );
    await write(fake, '/tmp/d.pf', 'pass in quick on bt007a inet proto udp all flags S/SA\n');
    const flags = await run(fake, '/sbin/pfctl -a hostd/y -f /tmp/d.pf');
    assert.equal(flags.exitCode, 1);
    assert.match(flags.stderr, /d\.pf:1: flags only apply to tcp/);
  });

  it('prints the task anchor as print_rule() does (`port = N`, default keep state)', async () => {
    const fake = new FakeFreeBSD();
    await started(fake);
    const shown = await run(fake, '/sbin/pfctl -a hostd/browsertask007 -sr');
    assert.equal(
      shown.stdout,
      [
        'pass in quick on bt007a inet proto tcp from 10.78.0.30 to 10.78.0.29 port = 3128 flags S/SA keep state',
        'pass out quick on bt007a inet proto tcp from 10.78.0.29 to 10.78.0.30 port = 9223 flags S/SA keep state',
        'block drop quick on bt007a all',
        '',
      ].join('\n'),
    );
  });
});

describe('FakeFreeBSD model fidelity: ifconfig (sbin/ifconfig/af_inet.c, ifgroup.c)', () => {
  it('prints inet with netmask and broadcast and every group on one line', async () => {
    const fake = new FakeFreeBSD();
    await started(fake);
    const shown = (await run(fake, '/sbin/ifconfig bt007a')).stdout;
    assert.match(
      shown,
      /^bt007a: flags=1008843<UP,BROADCAST,RUNNING,SIMPLEX,MULTICAST,LOWER_UP> metric 0 mtu 1500$/m,
    );
    assert.match(shown, /^\tinet 10\.78\.0\.29 netmask 0xfffffffc broadcast 10\.78\.0\.31$/m);
    assert.match(shown, /^\tgroups: epair hostdtask$/m);
    assert.doesNotMatch(shown, /\/30/);
  });
});

describe('FakeFreeBSD model fidelity: jail(8) and the jail (usr.sbin/jail, sys/kern, daemon.c)', () => {
  it('accepts the sysvshm/sysvsem/sysvmsg parameters with a jailsys value', () => {
    const conf = (value: string) => `j {\n  path = "/j";\n  sysvshm = "${value}";\n}\n`;
    assert.deepEqual(validateJailConf(conf('new')), []);
    assert.deepEqual(validateJailConf(conf('disable')), []);
    assert.match(validateJailConf(conf('yes')).join(), /unknown jailsys value/);
  });

  it('makes a jail on a plain directory (not a mount point); its exec.start then needs /bin/sh there', async () => {
    const fake = new FakeFreeBSD();
    fake.state.directories.add('/usr/jails/plain');
    const conf =
      'plain {\n  path = "/usr/jails/plain";\n  persist;\n  exec.start = "/bin/mkdir -p -m 1777 /tmp/x";\n}\n';
    await write(fake, '/tmp/plain.conf', conf);
    const empty = await run(fake, '/usr/sbin/jail -f /tmp/plain.conf -c plain');
    assert.equal(empty.exitCode, 1);
    assert.match(empty.stderr, /exec \/bin\/sh: No such file or directory/);
    await write(fake, '/usr/jails/plain/bin/sh', '');
    const made = await run(fake, '/usr/sbin/jail -f /tmp/plain.conf -c plain');
    assert.equal(made.exitCode, 0, made.stderr);
  });

  it('daemon -u with a user missing in the jail: exec.start exits 0, the service never runs', async () => {
    const fake = new FakeFreeBSD();
    const driver = createDriver(fake);
    await driver.create(7, spec());
    fake.state.jailUsers.delete('clawdie');
    const conf = [
      `${NAME} {`,
      '  path = "/var/hostd/jails/browsertask007";',
      '  persist;',
      '  exec.consolelog = "/var/log/hostd/browsertask007.console.log";',
      '  exec.start = "/usr/sbin/daemon -u clawdie -P /var/run/s.pid -o /var/log/s.log /usr/bin/env A=1 /usr/local/bin/node /s.js";',
      '}',
      '',
    ].join('\n');
    await write(fake, '/tmp/d.conf', conf);
    const made = await run(fake, `/usr/sbin/jail -f /tmp/d.conf -c ${NAME}`);
    assert.equal(made.exitCode, 0, made.stderr);
    assert.equal(fake.state.jails.get(NAME)?.serviceRunning, false);
    const console =
      fake.state.files.get('/var/log/hostd/browsertask007.console.log')?.content ?? '';
    assert.match(console, /daemon: unknown user: clawdie/);
  });

  it('a start without the service user fails at `install -o` (xinstall.c: unknown user)', async () => {
    const fake = new FakeFreeBSD();
    const driver = createDriver(fake);
    await driver.create(7, spec());
    fake.state.jailUsers.delete('clawdie');
    const error = await driver.start(NAME, { egressProxyUrl: null }).catch((e: unknown) => e);
    assert.match(String(error), /install: unknown user clawdie/);
  });

  it('the vnet interface returns to the host when the jail dies, not at jail -R', async () => {
    const fake = new FakeFreeBSD();
    await started(fake);
    fake.state.jailDyingPolls = 2;
    assert.equal((await run(fake, `/usr/sbin/jail -R ${NAME}`)).exitCode, 0);
    assert.equal((await run(fake, '/sbin/ifconfig bt007b')).exitCode, 1);
    assert.doesNotMatch((await run(fake, '/sbin/ifconfig -l')).stdout, /bt007b/);
    await run(fake, `/usr/sbin/jls -d -j ${NAME} jid`);
    await run(fake, `/usr/sbin/jls -d -j ${NAME} jid`);
    assert.equal((await run(fake, `/usr/sbin/jls -d -j ${NAME} jid`)).exitCode, 1);
    assert.equal((await run(fake, '/sbin/ifconfig bt007b')).exitCode, 0);
  });
});

describe('FakeFreeBSD model fidelity: Xvfb (os/utils.c ProcessCommandLine)', () => {
  it('takes -extension NAME for a known extension and refuses an unknown one', () => {
    assert.deepEqual(validateXvfb([':0', '-extension', 'MIT-SHM']), []);
    assert.match(validateXvfb([':0', '-extension', 'NOPE']).join(), /not recognized/);
    assert.match(validateXvfb([':0', '-extension']).join(), /needs a value/);
  });
});
