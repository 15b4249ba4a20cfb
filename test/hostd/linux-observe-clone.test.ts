// The Linux driver looks at one clone's resources only (create's leftover check, inspect, start,
// stop, destroy) yet still finds all of them: a process of the clone's uid is a leftover that
// refuses create, shows in inspect, is killed by destroy — and is not another clone's resource.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { sleep } from '@clawdie/kit/timing';
import { cloneName } from '../../hostd/src/drivers/jail-driver.js';
import { SETPRIV } from '../../hostd/src/drivers/linux/sandbox.js';
import { createTestDriver, TEST_NAMESPACE, testNames } from './support/linux-harness.js';
import { realLinuxDriverFile } from './support/real-driver-file.js';

const SPEC = {
  taskId: 'observe-one',
  allowedDomains: [],
  limits: { memoryMb: 256, cpuPercent: 50, pids: 64 },
  display: false,
};

/** A process of clone `index`'s uid that no driver started: what a leaked one looks like. */
function strayProcess(index: number) {
  const { uid } = testNames(index);
  const child = spawn(
    SETPRIV,
    [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', 'sleep', '60'],
    {
      stdio: 'ignore',
    },
  );
  return child;
}

realLinuxDriverFile('Linux driver: one clone observed', () => {
  test('a stray process of the uid is that clone’s leftover and no other’s', async () => {
    const driver = createTestDriver();
    const stray = strayProcess(962);
    try {
      await sleep(200);
      const name = cloneName(962, TEST_NAMESPACE);
      const seen = await driver.inspect(name);
      assert.ok(seen, 'the clone of a stray process exists for inspect');
      assert.deepEqual(seen.resources, [`process:${stray.pid}`]);
      await assert.rejects(driver.create(962, SPEC), { code: 'CLONE_EXISTS' });

      const created = await driver.create(961, SPEC);
      assert.equal(created.state, 'created');
      assert.ok(!created.resources.includes(`process:${stray.pid}`), 'not clone 961’s');
      assert.deepEqual(
        (await driver.list()).map((clone) => clone.name).sort(),
        [cloneName(961, TEST_NAMESPACE), name].sort(),
      );

      const destroyed = await driver.destroy(name);
      assert.deepEqual(destroyed.leftovers, []);
      assert.equal(await driver.inspect(name), null);
      assert.deepEqual((await driver.destroy(created.name)).leftovers, []);
    } finally {
      stray.kill('SIGKILL');
    }
  });
});
