// Crash-restart (freebsd-jails.md §4.4): hostd dies after step k of create/start (or of destroy);
// a fresh driver on the same host state reconciles from the OS alone to nothing, keeps confirmed
// live clones, and can reuse the index afterwards.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDriver, FakeFreeBSD, spec } from './driver-fixture.js';
import { SimulatedCrash } from './fake-freebsd.js';

const NAME = 'browsertask007';

async function countSteps(run: (fake: FakeFreeBSD) => Promise<unknown>): Promise<number> {
  const fake = new FakeFreeBSD();
  fake.crashAtStep(null);
  await run(fake);
  return fake.plan.filter((line) => !line.startsWith('[http]')).length;
}

async function createAndStart(fake: FakeFreeBSD): Promise<void> {
  const driver = createDriver(fake);
  await driver.create(7, spec());
  await driver.start(NAME, { egressProxyUrl: null });
}

async function crashAt(fake: FakeFreeBSD, step: number, run: () => Promise<unknown>) {
  fake.crashAtStep(step);
  await assert.rejects(run(), SimulatedCrash, `no crash at step ${step}`);
  fake.crashAtStep(null);
}

describe('FreeBSD driver crash-restart', () => {
  it('reconciles a clone half-made by a crash after any create/start step to nothing', async () => {
    const steps = await countSteps(createAndStart);
    for (let step = 1; step <= steps; step += 1) {
      const fake = new FakeFreeBSD();
      await crashAt(fake, step, () => createAndStart(fake));
      const restarted = createDriver(fake, 'after-restart');
      const result = await restarted.reconcile(() => false);
      assert.deepEqual(result.leftovers, {}, `step ${step}`);
      assert.deepEqual(result.kept, [], `step ${step}`);
      assert.deepEqual(fake.residue(), [], `step ${step}: ${fake.plan.join('\n')}`);
      assert.deepEqual(await restarted.list(), [], `step ${step}`);
      await restarted.create(7, spec());
      await restarted.start(NAME, { egressProxyUrl: null });
      assert.equal((await restarted.inspect(NAME))?.state, 'running', `step ${step}: reuse`);
    }
  });

  it('reconciles a clone whose destroy crashed after any step to nothing', async () => {
    const steps = await countSteps(async (fake) => {
      await createAndStart(fake);
      fake.plan.length = 0;
      await createDriver(fake).destroy(NAME);
    });
    for (let step = 1; step <= steps; step += 1) {
      const fake = new FakeFreeBSD();
      await createAndStart(fake);
      const driver = createDriver(fake);
      await crashAt(fake, step, () => driver.destroy(NAME));
      const result = await createDriver(fake).reconcile(() => false);
      assert.deepEqual(result.leftovers, {}, `step ${step}`);
      assert.deepEqual(fake.residue(), [], `step ${step}`);
    }
  });

  it('keeps a confirmed live clone and destroys the half-made one next to it', async () => {
    const fake = new FakeFreeBSD();
    const before = createDriver(fake);
    await before.create(3, spec('live-task'));
    await before.start('browsertask003', { egressProxyUrl: null });
    await crashAt(fake, 4, () => before.create(7, spec('crashed-task')));
    const restarted = createDriver(fake);
    const seen: string[] = [];
    const result = await restarted.reconcile((clone) => {
      seen.push(`${clone.name}:${clone.state}:${clone.taskId}`);
      return clone.state === 'running' && clone.taskId === 'live-task';
    });
    // Only a running clone whose service answers is offered for adoption.
    assert.deepEqual(seen, ['browsertask003:running:live-task']);
    assert.deepEqual(result, { kept: ['browsertask003'], destroyed: [NAME], leftovers: {} });
    const live = await restarted.inspect('browsertask003');
    assert.equal(live?.service?.token, 'token-1');
    assert.ok(fake.residue().every((resource) => !resource.includes('007')));
  });
});
