// clawdie setup: golden dry-run plans for FreeBSD and Linux (exact argv), apply through the
// CommandRunner, re-checks that catch Bastille's lying exit codes, and idempotency.
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { assertGolden } from '../hostd/freebsd/golden.js';
import {
  config,
  everythingMissing,
  linuxPrerequisitesMet,
  prerequisitesMet,
  RecordingRunner,
  runScripted,
} from './setup-fixture.js';

const goldenDir = join(dirname(fileURLToPath(import.meta.url)), 'golden');

describe('clawdie setup --dry-run', () => {
  it('prints the full FreeBSD plan on a fresh host and runs only read-only checks', async () => {
    const runner = new RecordingRunner([...prerequisitesMet, ...everythingMissing]);
    const { result, output } = await runScripted(config('freebsd', true), runner);
    assert.equal(result.ok, true);
    assertGolden(goldenDir, 'freebsd-dry-run.txt', output);
    assertGolden(goldenDir, 'freebsd-checks.txt', runner.commandLines());
    const mutating =
      /bastille (bootstrap|create|pkg|start|stop)|zfs (create|snapshot)|pw .* useradd/;
    assert.ok(runner.commandLines().every((line) => !mutating.test(line)));
  });

  it('prints the full Linux plan on a fresh host', async () => {
    const runner = new RecordingRunner([...linuxPrerequisitesMet, ...everythingMissing]);
    const { result, output } = await runScripted(config('linux', true), runner);
    assert.equal(result.ok, true);
    assertGolden(goldenDir, 'linux-dry-run.txt', output);
    assertGolden(goldenDir, 'linux-checks.txt', runner.commandLines());
  });

  it('warns, and still succeeds, when the headless shell is missing on Linux', async () => {
    const shell = '/bin/test -x /usr/lib/chromium/chromium-headless-shell';
    const met = linuxPrerequisitesMet.filter((reply) => reply.match !== shell);
    const runner = new RecordingRunner([...met, ...everythingMissing]);
    const { result, output } = await runScripted(config('linux', true), runner);
    assert.equal(result.ok, true);
    const at = output.findIndex((entry) => entry.startsWith('# headless-shell:'));
    assert.match(output[at + 1] ?? '', /^ {2}warned: .*apt-get install chromium-headless-shell/);
  });

  it('reports a missing prerequisite with its hint and keeps planning', async () => {
    const runner = new RecordingRunner([
      { match: '/sbin/sysctl -n kern.racct.enable', reply: { stdout: '0\n' } },
      ...prerequisitesMet,
      ...everythingMissing,
    ]);
    const { result } = await runScripted(config('freebsd', true), runner);
    assert.equal(result.ok, false);
    const racct = result.steps.find((step) => step.id === 'racct');
    assert.equal(racct?.outcome, 'failed');
    assert.match(racct?.message ?? '', /kern\.racct\.enable=1 to \/boot\/loader\.conf and reboot/);
    assert.equal(result.steps.at(-1)?.id, 'newsyslog-entry');
  });

  it('refuses a PF block on the task group without quick, saying where the quick block goes', async () => {
    const rules = 'anchor "hostd/*" all\nblock drop log on hostdtask all\npass all keep state\n';
    const runner = new RecordingRunner([
      { match: '/sbin/pfctl -sr', reply: { stdout: rules } },
      ...prerequisitesMet,
      ...everythingMissing,
    ]);
    const { result } = await runScripted(config('freebsd', true), runner);
    const pf = result.steps.find((step) => step.id === 'pf-hostd-anchor');
    assert.equal(pf?.outcome, 'failed');
    assert.match(pf?.message ?? '', /without quick/);
    assert.match(
      pf?.message ?? '',
      /`anchor "hostd\/\*"`, `block drop log quick on hostdtask all` \(no `pass … quick`/,
    );
  });
});

describe('clawdie setup apply', () => {
  it('is a no-op when every check passes (second run)', async () => {
    const runner = new RecordingRunner([
      ...prerequisitesMet,
      { match: '/usr/sbin/jls -j browser jid', reply: { exitCode: 1 } },
      { match: /^\/usr\/sbin\/sysrc -f \S+ -n bastille_zfs_enable$/, reply: { stdout: 'YES\n' } },
      { match: /^\/usr\/sbin\/sysrc -f \S+ -n bastille_zfs_zpool$/, reply: { stdout: 'zroot\n' } },
      { match: /./, reply: { stdout: 'present\n' } },
    ]);
    const { result } = await runScripted(config('freebsd'), runner);
    assert.equal(result.ok, true);
    assert.ok(result.steps.every((step) => step.outcome === 'done'));
    const checks = new RecordingRunner([...prerequisitesMet, ...everythingMissing]);
    await runScripted(config('freebsd', true), checks);
    // A fresh host also reads the template's network (it has a template to make); the rest match.
    const network = /^\/sbin\/route |^\/usr\/sbin\/sysrc -n ifconfig_/;
    const fresh = checks.commandLines().filter((line) => !network.test(line));
    assert.deepEqual(runner.commandLines(), fresh, 'only the checks ran');
  });

  it('does not trust `bastille start` exiting 0: the jls check fails the step', async () => {
    const runner = new RecordingRunner([
      ...prerequisitesMet,
      { match: '/usr/local/bin/bastille -v', reply: { stdout: '1.4.4\n' } },
      { match: /^\/usr\/sbin\/sysrc -f \S+ -n bastille_zfs_enable$/, reply: { stdout: 'YES\n' } },
      { match: /^\/usr\/sbin\/sysrc -f \S+ -n bastille_zfs_zpool$/, reply: { stdout: 'zroot\n' } },
      { match: /^\/sbin\/zfs list /, reply: { stdout: 'present\n' } },
      { match: /^\/usr\/sbin\/pkg -r \S+ info -e /, reply: { exitCode: 1 } },
      { match: '/usr/local/bin/bastille start browser', reply: { stdout: 'browser: started\n' } },
      { match: '/usr/sbin/jls -j browser jid', reply: { exitCode: 1, stderr: 'not found\n' } },
    ]);
    const { result } = await runScripted(config('freebsd'), runner);
    assert.equal(result.ok, false);
    assert.deepEqual(result.steps.at(-1), {
      id: 'template-packages',
      outcome: 'failed',
      message: '/usr/sbin/jls -j browser jid exited 1',
    });
    assert.ok(!runner.commandLines().some((line) => line.includes('bastille pkg')));
  });

  it('fails a step whose Bastille command exits 0 without doing the work', async () => {
    const runner = new RecordingRunner([
      ...prerequisitesMet,
      { match: '/usr/local/bin/bastille -v', reply: { stdout: '1.4.4\n' } },
      { match: /^\/usr\/sbin\/sysrc -f \S+ -n bastille_zfs_enable$/, reply: { stdout: 'YES\n' } },
      { match: /^\/usr\/sbin\/sysrc -f \S+ -n bastille_zfs_zpool$/, reply: { stdout: 'zroot\n' } },
      { match: /releases\/14\.3-RELEASE$/, reply: { exitCode: 1 } },
      { match: '/usr/local/bin/bastille bootstrap -u 14.3-RELEASE', reply: {} },
    ]);
    const { result } = await runScripted(config('freebsd'), runner);
    assert.equal(result.steps.at(-1)?.outcome, 'failed');
    assert.match(result.steps.at(-1)?.message ?? '', /^still not done: \/sbin\/zfs list/);
  });

  it('applies the Linux template profile and re-checks it', async () => {
    const profile = '/var/lib/clawdie/template-profile/chromium';
    const runner = new RecordingRunner([
      ...linuxPrerequisitesMet,
      { match: /^\/bin\/test -x /, reply: {} },
      { match: `/bin/test -f ${profile}/Local State`, reply: { exitCode: 1 }, once: true },
      { match: `/bin/test -f ${profile}/Local State`, reply: {} },
      { match: `/usr/bin/install -d -m 0755 ${profile}`, reply: {} },
      { match: /^\/usr\/bin\/chromium --headless=new /, reply: {} },
    ]);
    const { result } = await runScripted(config('linux'), runner);
    assert.equal(result.ok, true);
    assert.equal(result.steps.at(-1)?.outcome, 'applied');
    const chromium = runner.calls.find((call) => call.argv[0] === '/usr/bin/chromium');
    assert.deepEqual(chromium?.argv, [
      '/usr/bin/chromium',
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-background-networking',
      '--disable-sync',
      `--user-data-dir=${profile}`,
      '--dump-dom',
      'about:blank',
    ]);
  });
});
