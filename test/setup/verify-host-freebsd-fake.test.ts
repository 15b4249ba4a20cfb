// `clawdie setup --verify-host` through the real FreeBsdDriver over the in-memory FreeBSD host:
// the report's FreeBSD path (driver kind, isolation from the host's PF/rctl state, clone create
// and destroy, leftovers, reconcile). The report says what the model cannot show.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDriver, FakeFreeBSD } from '../hostd/freebsd/driver-fixture.js';
import { FAKE_FREEBSD_NOTES, LoopbackReachDriver } from './support/loopback-reach-driver.js';
import { runVerify } from './support/run-verify-cli.js';

function overFakeFreeBsd(fake: FakeFreeBSD) {
  return runVerify({
    verifyDriver: () => new LoopbackReachDriver(createDriver(fake)),
    verifyNotes: FAKE_FREEBSD_NOTES,
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
    assert.match(text, /^result: PASS \(14 checks\)$/m);
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
