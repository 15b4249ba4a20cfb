// Issue 26 (points 3 and 5), on the fake FreeBSD host: the main PF ruleset must block the task
// group with quick after the task anchors; teardown empties a task's anchor only once its jail is
// gone; a jail without its conf is removed with -R (never through the admin's /etc/jail.conf); the
// preflight makes the console log directory and checks VIMAGE and if_epair; the service gets a HOME
// of its own. Decided off-host against the FreeBSD sources, not run on a real host.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mainRulesProblems } from '../../../hostd/src/drivers/freebsd/pf-main-rules.js';
import { JailDriverError } from '../../../hostd/src/drivers/jail-driver.js';
import { createDriver, FakeFreeBSD, spec } from './driver-fixture.js';

const NAME = 'browsertask007';
const ANCHOR = 'anchor "hostd/*" all';
const layout = { pfAnchor: 'hostd', interfaceGroup: 'hostdtask' };

async function started(fake: FakeFreeBSD) {
  const driver = createDriver(fake);
  await driver.create(7, spec());
  await driver.start(NAME, { egressProxyUrl: null });
  return driver;
}

describe('FreeBSD host fails closed', () => {
  it('refuses a main ruleset whose block on the task group has no quick and is followed by a pass', async () => {
    const fake = new FakeFreeBSD();
    fake.state.mainRules = [
      ANCHOR,
      'block drop log on hostdtask all',
      'pass all flags S/SA keep state',
    ];
    const probed = await createDriver(fake).probe();
    assert.equal(probed.level, 'reduced');
    assert.match(probed.reasons.join('\n'), /blocks hostdtask without quick .*last matching rule/);
  });

  it('accepts the quick block after the anchor, a later pass and quick passes on other interfaces', async () => {
    const fake = new FakeFreeBSD();
    fake.state.mainRules = [
      'pass out quick on vtnet0 all flags S/SA keep state',
      ANCHOR,
      'block drop log quick on hostdtask all',
      'pass all flags S/SA keep state',
    ];
    assert.deepEqual(await createDriver(fake).probe(), { level: 'full', reasons: [] });
  });

  it('refuses the quick block before the anchor (the task anchors would never run)', () => {
    const rules = `block drop quick on hostdtask all\n${ANCHOR}\n`;
    assert.match(mainRulesProblems(rules, layout).join(''), /comes before `anchor "hostd\/\*"`/);
  });

  it('refuses a quick pass that can match a task interface before the block', () => {
    for (const pass of [
      'pass quick all flags S/SA keep state',
      'pass in quick on epair all flags S/SA keep state',
      'pass quick on ! vtnet0 all flags S/SA keep state',
      'pass log quick on hostdtask inet proto tcp from any to any port = 80 flags S/SA keep state',
    ]) {
      const problems = mainRulesProblems(
        `${ANCHOR}\n${pass}\nblock drop quick on hostdtask all`,
        layout,
      );
      assert.equal(problems.length, 1, pass);
      assert.match(problems[0] ?? '', /passes task traffic before its fail-closed block/);
    }
  });

  it('refuses a block that covers one direction or one family only', () => {
    for (const block of [
      'block drop in quick on hostdtask all',
      'block drop quick on hostdtask inet all',
    ]) {
      assert.equal(mainRulesProblems(`${ANCHOR}\n${block}\n`, layout).length, 1, block);
    }
  });

  it('flushes the task anchor only after the jail is removed', async () => {
    const fake = new FakeFreeBSD();
    const driver = await started(fake);
    const mark = fake.plan.length;
    assert.deepEqual((await driver.destroy(NAME)).leftovers, []);
    const teardown = fake.plan.slice(mark);
    const removed = teardown.indexOf(`/usr/sbin/jail -f /var/run/hostd/${NAME}.conf -r ${NAME}`);
    const flushed = teardown.indexOf(`/sbin/pfctl -a hostd/${NAME} -F rules`);
    assert.ok(removed >= 0 && flushed > removed, teardown.join('\n'));
    assert.ok(teardown.indexOf(`/sbin/pfctl -k 10.78.0.30`) > flushed);
  });

  it('removes a jail whose conf is gone with jail -R, never through the admin /etc/jail.conf', async () => {
    const fake = new FakeFreeBSD();
    const driver = await started(fake);
    fake.state.files.delete(`/var/run/hostd/${NAME}.conf`);
    fake.state.files.set('/etc/jail.conf', {
      content: '* { exec.stop = "/bin/sh /etc/rc.shutdown"; }\n',
      mode: 0o644,
      uid: 0,
    });
    assert.deepEqual((await driver.destroy(NAME)).leftovers, []);
    assert.ok(!fake.plan.includes(`/usr/sbin/jail -r ${NAME}`));
    assert.ok(fake.plan.includes(`/usr/sbin/jail -R ${NAME}`));
    assert.deepEqual(fake.state.removedWithAdminConf, []);
    assert.deepEqual(fake.residue(), []);
  });

  it('models jail -r without -f: it fails when /etc/jail.conf is missing', async () => {
    const fake = new FakeFreeBSD();
    await started(fake);
    const result = await fake.runner.run(['/usr/sbin/jail', '-r', NAME], { timeoutMs: 1000 });
    assert.equal(result.exitCode, 1);
    assert.match(result.stderr, /^jail: \/etc\/jail\.conf: No such file or directory$/m);
    assert.ok(fake.state.jails.has(NAME));
  });

  it('preflight makes the console log directory jail(8) needs, which start fails without', async () => {
    const fake = new FakeFreeBSD();
    fake.state.directories.delete('/var/log/hostd');
    const driver = createDriver(fake);
    await driver.create(7, spec());
    const error = await driver.start(NAME, { egressProxyUrl: null }).catch((e: unknown) => e);
    assert.ok(error instanceof JailDriverError && error.code === 'CLONE_START_FAILED');
    assert.match(
      error.message,
      /open \/var\/log\/hostd\/browsertask007\.console\.log: No such file/,
    );
    assert.deepEqual(await driver.preflight(), []);
    assert.ok(fake.plan.includes('/bin/mkdir -p -m 0750 /var/log/hostd'));
    await driver.start(NAME, { egressProxyUrl: null });
  });

  it('preflight says so when it cannot make the console log directory', async () => {
    const fake = new FakeFreeBSD();
    fake.state.directories.delete('/var/log/hostd');
    fake.inject({
      match: /^\/bin\/mkdir /,
      effect: { kind: 'fail', stderr: 'mkdir: /var/log/hostd: Read-only file system' },
    });
    const missing = await createDriver(fake).preflight();
    assert.equal(missing.length, 1);
    assert.match(
      missing[0] ?? '',
      /console log directory \/var\/log\/hostd .*Read-only file system/,
    );
  });

  it('preflight names a kernel without VIMAGE and an if_epair it cannot load', async () => {
    const fake = new FakeFreeBSD();
    fake.state.vimage = false;
    fake.state.kernelModules.clear();
    fake.inject({
      match: /^\/sbin\/kldload /,
      effect: { kind: 'fail', stderr: 'kldload: an error occurred' },
    });
    const missing = await createDriver(fake).preflight();
    assert.equal(missing.length, 2);
    assert.match(missing[0] ?? '', /no VIMAGE \(sysctl kern\.features\.vimage is not 1\)/);
    assert.match(missing[1] ?? '', /if_epair module is not loaded and cannot be loaded/);
  });

  it('preflight loads if_epair when it is not in the kernel yet', async () => {
    const fake = new FakeFreeBSD();
    fake.state.kernelModules.clear();
    assert.deepEqual(await createDriver(fake).preflight(), []);
    assert.ok(fake.plan.includes('/sbin/kldload -n if_epair'));
  });

  it('gives the service a HOME that exec.start made for it, not the template user /nonexistent', async () => {
    const fake = new FakeFreeBSD();
    await started(fake);
    const conf = fake.state.files.get(`/var/run/hostd/${NAME}.conf`)?.content ?? '';
    const starts = [...conf.matchAll(/exec\.start \+?= "([^"]*)";/g)].map((m) => m[1] ?? '');
    const service = starts.findIndex((line) => line.includes(' /usr/bin/env '));
    const home = /\/usr\/bin\/env (?:\S+=\S+ )*?HOME=(\S+)/.exec(starts[service] ?? '')?.[1];
    assert.equal(home, '/tmp/home');
    const made = starts.indexOf(`/usr/bin/install -d -m 0700 -o clawdie ${home}`);
    assert.ok(made >= 0 && made < service, starts.join('\n'));
  });
});
