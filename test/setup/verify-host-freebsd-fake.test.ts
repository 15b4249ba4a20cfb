// `clawdie setup --verify-host` through the real FreeBsdDriver over the in-memory FreeBSD host:
// the report's FreeBSD path (driver kind, isolation from the host's PF/rctl state, clone create
// and destroy, leftovers, reconcile). The report says what the model cannot show.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PROBE_SCRIPT } from '../../hostd/src/drivers/inside-probe.js';
import { createDriver, FakeFreeBSD } from '../hostd/freebsd/driver-fixture.js';
import { FAKE_FREEBSD_NOTES, LoopbackReachDriver } from './support/loopback-reach-driver.js';
import { runVerify } from './support/run-verify-cli.js';

function overFakeFreeBsd(fake: FakeFreeBSD, afterStart?: (name: string) => void) {
  const inner = createDriver(fake);
  if (afterStart) {
    const start = inner.start.bind(inner);
    inner.start = async (name, options) => {
      const info = await start(name, options);
      afterStart(name);
      return info;
    };
  }
  return runVerify({
    verifyDriver: () => new LoopbackReachDriver(inner),
    verifyNotes: FAKE_FREEBSD_NOTES,
  });
}

/** The probes run inside a jail: `jexec -U <user> <jail> node -e <script> host port ms payload`. */
function probes(fake: FakeFreeBSD): string[][] {
  return fake.commands
    .filter((line) => line.startsWith('/usr/sbin/jexec '))
    .map((line) => {
      const at = line.indexOf(PROBE_SCRIPT);
      const tail = line
        .slice(at + PROBE_SCRIPT.length)
        .trim()
        .split(' ');
      return [...line.slice(0, at).trim().split(' '), ...tail.slice(0, 3)];
    });
}

describe('clawdie setup --verify-host over the fake FreeBSD host', () => {
  it('passes through the FreeBsdDriver, says what the fake cannot show, leaves no residue', async () => {
    const fake = new FakeFreeBSD();
    const { code, text } = await overFakeFreeBsd(fake);
    assert.equal(code, 0, text);
    assert.match(text, /^driver: +freebsd$/m);
    assert.match(text, /^isolation: full$/m);
    assert.match(text, /^note: +FAKE FreeBSD host/m);
    assert.match(text, /^note: +not shown by the fake: ZFS, VNET\/epair, PF rules and rctl/m);
    assert.match(text, /^PASS +create and start one clone .*browsertask001/m);
    assert.match(text, /^PASS +nothing left on the host /m);
    assert.match(text, /^PASS +host prepared as hostd's configuration names it/m);
    assert.match(
      text,
      /^PASS +from inside the clone: a direct connection to the host fails .*timeout$/m,
    );
    assert.match(text, /^PASS +from inside the clone: its egress proxy answers .*HTTP\/1\.1 403/m);
    assert.match(text, /^result: PASS \(20 checks\)$/m);
    // From inside browsertask001 (jail 10.78.0.6, host end 10.78.0.5), as the service user:
    const jexec = [
      '/usr/sbin/jexec',
      '-U',
      'clawdie',
      'browsertask001',
      '/usr/local/bin/node',
      '-e',
    ];
    const seen = probes(fake);
    assert.deepEqual(
      seen.map((argv) => argv.slice(0, 6)),
      seen.map(() => jexec),
    );
    assert.deepEqual(
      seen.map((argv) => argv.slice(6, 7).concat(argv[7] === '3128' ? ['3128'] : [])),
      [['10.78.0.5'], ['10.78.0.10'], ['1.1.1.1'], ['10.78.0.5', '3128']],
      'the host end, the peer jail, a public address, the proxy',
    );
    assert.equal(seen[1]?.[7], '9223', "the peer's jail-service port");
    assert.ok(
      fake.plan.some((line) => /^\/sbin\/zfs clone /.test(line)),
      'no zfs clone ran',
    );
    assert.ok(
      fake.plan.some((line) => /^\/sbin\/zfs destroy /.test(line)),
      'no zfs destroy ran',
    );
    assert.deepEqual(fake.residue(), []);
  });

  it('fails, naming what was reachable, when PF lets the jail reach past its proxy', async () => {
    const fake = new FakeFreeBSD();
    const { code, text } = await overFakeFreeBsd(fake, (name) => {
      // A hole in the task's anchor, before its rules: everything from the jail passes.
      const anchor = fake.state.anchors.get(`hostd/${name}`) ?? [];
      anchor.unshift(`pass in quick on bt${name.slice(-3)}a all\n`);
    });
    assert.equal(code, 1, text);
    assert.match(
      text,
      /^FAIL +from inside the clone: a direct connection to the host fails .*reachable from inside browsertask001: .* \(a listener on the host\) — connected$/m,
    );
    assert.match(
      text,
      /^FAIL +from inside the clone: a direct connection to a public address fails .*1\.1\.1\.1:443 \(public\) — connected$/m,
    );
    assert.match(
      text,
      /^FAIL +from inside the clone: a direct connection to another clone's jail-service fails /m,
    );
    assert.match(text, /^PASS +nothing left on the host /m);
    assert.deepEqual(fake.residue(), []);
  });

  it('fails with a non-zero exit when the clone dataset cannot be destroyed', async () => {
    const fake = new FakeFreeBSD();
    fake.inject({
      match: /zfs destroy/,
      times: 1000,
      effect: { kind: 'fail', stderr: 'cannot destroy: dataset is busy' },
    });
    const { code, text } = await overFakeFreeBsd(fake);
    assert.equal(code, 1, text);
    assert.match(text, /^FAIL +destroy the clone .*leftovers: .*browsertask001/m);
    assert.match(text, /^FAIL +nothing left on the host .*browsertask001/m);
    assert.match(text, /^result: FAIL /m);
  });

  it('fails on reduced isolation and prints its reasons (rctl off, PF off)', async () => {
    const fake = new FakeFreeBSD();
    fake.state.racctEnabled = false;
    fake.state.pfEnabled = false;
    fake.state.mainRules = [];
    const { code, text } = await overFakeFreeBsd(fake);
    assert.equal(code, 1, text);
    assert.match(text, /^isolation: reduced$/m);
    assert.match(text, /^ {2}reason: +rctl is disabled/m);
    assert.match(text, /^FAIL +isolation is full /m);
    assert.deepEqual(fake.residue(), []);
  });
});
