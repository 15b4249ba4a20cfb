// Golden command plans of the FreeBSD driver (freebsd-jails.md §4.3): every mutating command and
// file operation of create, start, destroy and reconcile, compared exactly. Regenerate with
// UPDATE_GOLDEN=1 and review the diff.
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cloneNamespace } from '../../../hostd/src/drivers/clone-namespace.js';
import { JailDriverError } from '../../../hostd/src/drivers/jail-driver.js';
import { createDriver, FakeFreeBSD, spec } from './driver-fixture.js';
import { assertGolden } from './golden.js';

const goldenDir = join(dirname(fileURLToPath(import.meta.url)), 'golden');

describe('FreeBSD driver command plans', () => {
  it('creates task 007 with the golden plan', async () => {
    const fake = new FakeFreeBSD();
    await createDriver(fake).create(7, spec());
    assertGolden(goldenDir, 'create-007.txt', fake.plan);
  });

  it('creates, starts and destroys task 007 of namespace test with its own names (golden plan)', async () => {
    const fake = new FakeFreeBSD();
    const other = createDriver(fake, 'other');
    await other.create(7, spec('default-namespace-task'));
    const before = fake.state.interfaces.size;
    const mark = fake.plan.length;
    const driver = createDriver(fake, 'token', cloneNamespace('test'));
    await driver.create(7, spec());
    await driver.start('browsertasktest007', { egressProxyUrl: 'http://10.78.96.29:3128' });
    assert.deepEqual((await driver.destroy('browsertasktest007')).leftovers, []);
    assertGolden(goldenDir, 'lifecycle-test-007.txt', fake.plan.slice(mark));
    assert.equal(fake.state.interfaces.size, before, "the default namespace's task is untouched");
    assert.equal((await other.inspect('browsertask007'))?.taskId, 'default-namespace-task');
  });

  it('starts task 007 with the golden plan', async () => {
    const fake = new FakeFreeBSD();
    const driver = createDriver(fake);
    await driver.create(7, spec());
    fake.plan.length = 0;
    const clone = await driver.start('browsertask007', {
      egressProxyUrl: 'http://10.78.0.29:3128',
    });
    assert.equal(clone.state, 'running');
    assertGolden(goldenDir, 'start-007.txt', fake.plan);
    assertGolden(goldenDir, 'browsertask007.conf', [
      (fake.state.files.get('/var/run/hostd/browsertask007.conf')?.content ?? '').trimEnd(),
    ]);
    assertGolden(goldenDir, 'browsertask007.pf', [
      (fake.state.files.get('/var/run/hostd/browsertask007.pf')?.content ?? '').trimEnd(),
    ]);
  });

  it('starts desktop task 007 with Xvfb inside the jail before the service (golden jail.conf)', async () => {
    const fake = new FakeFreeBSD();
    const driver = createDriver(fake);
    const created = await driver.create(7, { ...spec(), display: true });
    assert.equal(created.display, null, 'no display before the jail runs');
    assert.ok(
      fake.plan[0]?.includes(' -o hostd:display=:0 '),
      `the display is recorded on the clone: ${fake.plan[0]}`,
    );
    const clone = await driver.start('browsertask007', {
      egressProxyUrl: 'http://10.78.0.29:3128',
    });
    assert.equal(clone.state, 'running');
    assert.equal(clone.display, ':0');
    assertGolden(goldenDir, 'browsertask007-desktop.conf', [
      (fake.state.files.get('/var/run/hostd/browsertask007.conf')?.content ?? '').trimEnd(),
    ]);
    assert.equal((await driver.inspect('browsertask007'))?.display, ':0');
    assert.deepEqual((await driver.destroy('browsertask007')).leftovers, []);
    assert.deepEqual(fake.residue(), []);
  });

  it('destroys running task 007 with the golden plan and leaves nothing', async () => {
    const fake = new FakeFreeBSD();
    const driver = createDriver(fake);
    await driver.create(7, spec());
    await driver.start('browsertask007', { egressProxyUrl: null });
    fake.plan.length = 0;
    const result = await driver.destroy('browsertask007');
    assert.deepEqual(result, { name: 'browsertask007', leftovers: [] });
    assertGolden(goldenDir, 'destroy-007.txt', fake.plan);
    assert.deepEqual(fake.residue(), []);
  });

  it('prints the full command sequence of create + start + destroy, read-only checks included', async () => {
    const fake = new FakeFreeBSD();
    const driver = createDriver(fake);
    await driver.create(7, spec());
    await driver.start('browsertask007', { egressProxyUrl: null });
    await driver.destroy('browsertask007');
    assertGolden(goldenDir, 'lifecycle-007-all-commands.txt', fake.commands);
  });

  it('decides a start from two targeted reads, not the whole host inventory', async () => {
    const fake = new FakeFreeBSD();
    const driver = createDriver(fake);
    await driver.create(7, spec());
    const before = fake.commands.length;
    await driver.start('browsertask007', { egressProxyUrl: null });
    assert.deepEqual(fake.commands.slice(before, before + 3), [
      '/sbin/zfs list -H -p -o name,hostd:task,hostd:expires,hostd:display zroot/hostd/tasks/browsertask007',
      '/usr/sbin/jls -j browsertask007 jid',
      '/usr/sbin/jail -f /var/run/hostd/browsertask007.conf -c browsertask007',
    ]);
    // Already running: no second jail -c, the full observation is returned.
    const again = await driver.start('browsertask007', { egressProxyUrl: null });
    assert.equal(again.state, 'running');
    assert.equal(fake.plan.filter((line) => line.includes(' -c browsertask007')).length, 1);
    // Nothing of the clone's dataset: not found, even with other leftovers of the index.
    const missing = await createDriver(fake)
      .start('browsertask008', { egressProxyUrl: null })
      .catch((error: unknown) => error);
    assert.ok(missing instanceof JailDriverError && missing.code === 'CLONE_NOT_FOUND');
    assert.deepEqual((await driver.destroy('browsertask007')).leftovers, []);
  });

  it('stops a running clone to state created and starts it again', async () => {
    const fake = new FakeFreeBSD();
    const driver = createDriver(fake);
    await driver.create(7, spec());
    await driver.start('browsertask007', { egressProxyUrl: null });
    const stopped = await driver.stop('browsertask007');
    assert.equal(stopped?.state, 'created');
    assert.equal(stopped?.service, null);
    assert.ok(!fake.residue().some((r) => r.startsWith('mount:') && r.endsWith('/dev')));
    const again = await driver.start('browsertask007', { egressProxyUrl: null });
    assert.equal(again.state, 'running');
    assert.equal(again.service?.token, 'token-1');
    assert.deepEqual((await driver.destroy('browsertask007')).leftovers, []);
  });
});
