// Fault injection at every step of the FreeBSD driver (freebsd-jails.md §4.4): whatever fails or
// lies during create/start, the caller's destroy leaves nothing behind; teardown faults are
// reported as leftovers and a later reconcile cleans them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JailDriverError } from '../../../hostd/src/drivers/jail-driver.js';
import { createDriver, FakeFreeBSD, spec } from './driver-fixture.js';
import type { FaultEffect } from './fake-freebsd.js';

const NAME = 'browsertask007';

/** The mutating steps of a clean create + start, as plan lines. */
async function lifecycleSteps(): Promise<string[]> {
  const fake = new FakeFreeBSD();
  const driver = createDriver(fake);
  await driver.create(7, spec());
  await driver.start(NAME, { egressProxyUrl: null });
  return fake.plan.filter((line) => !line.startsWith('[http]'));
}

function exactly(line: string): RegExp {
  return new RegExp(`^${line.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);
}

async function createAndStart(fake: FakeFreeBSD): Promise<unknown> {
  const driver = createDriver(fake);
  try {
    await driver.create(7, spec());
    await driver.start(NAME, { egressProxyUrl: null, timeoutMs: 3000 });
    return null;
  } catch (error) {
    return error;
  }
}

describe('FreeBSD driver under injected faults', () => {
  for (const effect of [
    { kind: 'fail', stderr: 'injected failure' },
    { kind: 'lie' },
  ] satisfies FaultEffect[]) {
    it(`fails create/start when any step ${effect.kind}s, and destroy then leaves nothing`, async () => {
      const steps = await lifecycleSteps();
      assert.ok(steps.length >= 10, `expected the full plan, got ${steps.length} steps`);
      for (const step of steps) {
        const fake = new FakeFreeBSD();
        fake.inject({ match: exactly(step), effect });
        const error = await createAndStart(fake);
        assert.ok(error instanceof JailDriverError, `${step}: expected a JailDriverError`);
        assert.match(error.code, /CLONE_(CREATE|START)_FAILED/, step);
        const result = await createDriver(fake).destroy(NAME);
        assert.deepEqual(result.leftovers, [], `${step}: leftovers after destroy`);
        assert.deepEqual(fake.residue(), [], `${step}: residue after destroy`);
      }
    });
  }

  it('fails start when the health check never passes, and destroy leaves nothing', async () => {
    const fake = new FakeFreeBSD();
    fake.state.health = 'never';
    const error = await createAndStart(fake);
    assert.ok(error instanceof JailDriverError && error.code === 'CLONE_START_FAILED');
    assert.match(error.message, /no healthy answer within 3000 ms/);
    assert.deepEqual((await createDriver(fake).destroy(NAME)).leftovers, []);
    assert.deepEqual(fake.residue(), []);
  });

  it('fails start when exec.start fails: jail(8) makes no jail', async () => {
    const fake = new FakeFreeBSD();
    fake.state.failExecStart = true;
    const error = await createAndStart(fake);
    assert.ok(error instanceof JailDriverError && error.code === 'CLONE_START_FAILED');
    assert.equal(fake.state.jails.size, 0);
    assert.deepEqual((await createDriver(fake).destroy(NAME)).leftovers, []);
    assert.deepEqual(fake.residue(), []);
  });

  it('refuses to create over a leftover dataset and reconcile removes it', async () => {
    const fake = new FakeFreeBSD();
    const first = createDriver(fake);
    await first.create(7, spec());
    fake.state.anchors.clear();
    const error = await createDriver(fake)
      .create(7, spec('another'))
      .catch((e: unknown) => e);
    assert.ok(error instanceof JailDriverError && error.code === 'CLONE_EXISTS');
    const reconciled = await createDriver(fake).reconcile(() => false);
    assert.deepEqual(reconciled.destroyed, [NAME]);
    assert.deepEqual(fake.residue(), []);
  });

  it('retries zfs destroy while the dataset is busy', async () => {
    const fake = new FakeFreeBSD();
    const driver = createDriver(fake);
    await driver.create(7, spec());
    await driver.start(NAME, { egressProxyUrl: null });
    fake.state.busy.set('zroot/hostd/tasks/browsertask007', 2);
    assert.deepEqual((await driver.destroy(NAME)).leftovers, []);
    const destroys = fake.plan.filter((line) => line.startsWith('/sbin/zfs destroy'));
    assert.deepEqual(destroys, [
      '/sbin/zfs destroy -r zroot/hostd/tasks/browsertask007',
      '/sbin/zfs destroy -r zroot/hostd/tasks/browsertask007',
      '/sbin/zfs destroy -rf zroot/hostd/tasks/browsertask007',
    ]);
    assert.deepEqual(fake.residue(), []);
  });

  it('waits for a dying jail to leave jls -d before verifying', async () => {
    const fake = new FakeFreeBSD();
    const driver = createDriver(fake);
    await driver.create(7, spec());
    await driver.start(NAME, { egressProxyUrl: null });
    fake.state.jailDyingPolls = 3;
    assert.deepEqual((await driver.destroy(NAME)).leftovers, []);
    const polls = fake.commands.filter((line) => line === '/usr/sbin/jls -d -j browsertask007 jid');
    assert.ok(polls.length >= 4, `polled ${polls.length} times`);
  });

  it('reports a jail that stays dying as a leftover and keeps the index reserved', async () => {
    const fake = new FakeFreeBSD();
    const driver = createDriver(fake);
    await driver.create(7, spec());
    await driver.start(NAME, { egressProxyUrl: null });
    fake.state.jailDyingPolls = 1000;
    const result = await driver.destroy(NAME);
    assert.deepEqual(result.leftovers, ['dying-jail:browsertask007']);
    const again = await driver.create(7, spec()).catch((e: unknown) => e);
    assert.ok(again instanceof JailDriverError && again.code === 'CLONE_EXISTS');
  });

  it('falls back to jail -R and unmounts the devfs it leaves behind', async () => {
    const fake = new FakeFreeBSD();
    const driver = createDriver(fake);
    await driver.create(7, spec());
    await driver.start(NAME, { egressProxyUrl: null });
    fake.inject({ match: /^\/usr\/sbin\/jail -f \S+ -r /, effect: { kind: 'fail', stderr: 'x' } });
    assert.deepEqual((await driver.destroy(NAME)).leftovers, []);
    assert.ok(fake.plan.includes('/usr/sbin/jail -R browsertask007'));
    assert.ok(fake.plan.includes('/sbin/umount -f /var/hostd/jails/browsertask007/dev'));
    assert.deepEqual(fake.residue(), []);
  });

  it('does not trust jail -r exiting 0: a jail still listed is removed with jail -R', async () => {
    const fake = new FakeFreeBSD();
    const driver = createDriver(fake);
    await driver.create(7, spec());
    await driver.start(NAME, { egressProxyUrl: null });
    fake.inject({ match: /^\/usr\/sbin\/jail -f \S+ -r /, effect: { kind: 'lie' } });
    assert.deepEqual((await driver.destroy(NAME)).leftovers, []);
    assert.ok(fake.plan.includes('/usr/sbin/jail -R browsertask007'));
    assert.deepEqual(fake.residue(), []);
  });

  it('reports reduced isolation when the main ruleset has the anchor but does not block the group', async () => {
    const fake = new FakeFreeBSD();
    fake.state.mainRules = ['anchor "hostd/*" all', 'block drop log on othergroup all'];
    assert.deepEqual(await createDriver(fake).probe(), {
      level: 'reduced',
      reasons: [
        'the main PF ruleset does not block the interface group hostdtask (`block drop log quick on hostdtask all` after `anchor "hostd/*"`)',
      ],
    });
  });

  it('reports reduced isolation when rctl or PF is unavailable', async () => {
    const fake = new FakeFreeBSD();
    assert.deepEqual(await createDriver(fake).probe(), { level: 'full', reasons: [] });
    fake.state.racctEnabled = false;
    fake.state.pfEnabled = false;
    fake.state.mainRules = [];
    const probed = await createDriver(fake).probe();
    assert.equal(probed.level, 'reduced');
    assert.equal(probed.reasons.length, 3);
    assert.match(probed.reasons.at(-1) ?? '', /has no `anchor "hostd\/\*"`/);
    const error = await createDriver(fake)
      .create(7, spec())
      .catch((e: unknown) => e);
    assert.ok(error instanceof JailDriverError && error.code === 'CLONE_CREATE_FAILED');
    assert.match(error.message, /PF is not enabled|RACCT\/RCTL present, but disabled/);
    assert.deepEqual((await createDriver(fake).destroy(NAME)).leftovers, []);
  });

  it('fails closed: no clone while PF is disabled, even with rctl on and the anchor loadable', async () => {
    const fake = new FakeFreeBSD();
    fake.state.pfEnabled = false;
    const error = await createDriver(fake)
      .create(7, spec())
      .catch((e: unknown) => e);
    assert.ok(error instanceof JailDriverError && error.code === 'CLONE_CREATE_FAILED');
    assert.match(error.message, /PF is not enabled, so nothing would filter the task jail/);
    assert.equal(fake.state.jails.size, 0);
    assert.deepEqual(fake.residue(), []);
  });

  it('leaves leftovers when a teardown step fails, and the next reconcile removes them', async () => {
    const teardown = [/-F rules$/, /^\/sbin\/pfctl -k/, /rctl -r/, /ifconfig bt007a destroy/];
    for (const match of [...teardown, /zfs destroy/]) {
      const fake = new FakeFreeBSD();
      const driver = createDriver(fake);
      await driver.create(7, spec());
      await driver.start(NAME, { egressProxyUrl: null });
      fake.inject({ match, times: 3, effect: { kind: 'fail', stderr: 'injected' } });
      const first = await driver.destroy(NAME);
      assert.notDeepEqual(first.leftovers, [], `${match}: expected leftovers to be reported`);
      fake.clearFaults();
      const reconciled = await createDriver(fake).reconcile(() => false);
      assert.deepEqual(reconciled.leftovers, {}, String(match));
      assert.deepEqual(fake.residue(), [], String(match));
    }
  });
});
