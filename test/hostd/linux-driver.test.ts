// The real Linux driver, as root: the JailDriver contract, network isolation and egress, and leak
// cycles. One file, because clone namespaces are host-global and tests must not reconcile each
// other's clones. Skips (printing what is missing) only where the host cannot run it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cloneName } from '../../hostd/src/drivers/jail-driver.js';
import { jailDriverContract } from './jail-driver.contract.js';
import { acquireHostLock } from './support/host-lock.js';
import { createTestDriver, hostLeftovers, linuxDriverMissing } from './support/linux-harness.js';
import { registerIsolationTests } from './support/linux-isolation.js';

const missing = linuxDriverMissing();
if (missing) {
  console.error(`SKIP real Linux driver tests: ${missing}`);
  if (process.env.CI) throw new Error(`the Linux driver tests cannot run in CI: ${missing}`);
} else {
  let releaseHostLock = () => {};
  before(async () => {
    releaseHostLock = await acquireHostLock();
    await createTestDriver().reconcile(() => false);
  });
  after(async () => {
    try {
      await createTestDriver().reconcile(() => false);
      assert.deepEqual(await settledLeftovers(), []);
    } finally {
      releaseHostLock();
    }
  });

  jailDriverContract('LinuxDriver (root)', () => createTestDriver(), {
    indexes: [901, 902, 903],
    checkService: async (url, token) => {
      const response = await fetch(`${url}/health`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(response.status, 200);
      const anonymous = await fetch(`${url}/health`);
      assert.equal(anonymous.status, 401);
    },
  });

  registerIsolationTests();

  describe('LinuxDriver leaks', () => {
    it('reports full isolation on this root host', async () => {
      const isolation = await createTestDriver().probe();
      assert.deepEqual(isolation, { level: 'full', reasons: [] });
    });

    it('20 create/destroy cycles with a display leave nothing behind', async () => {
      const driver = createTestDriver();
      for (let cycle = 0; cycle < 20; cycle += 1) {
        const index = 910 + (cycle % 5);
        const clone = await driver.create(index, {
          taskId: `leak-${cycle}`,
          allowedDomains: [],
          limits: { memoryMb: 512, pids: 256, cpuPercent: 50 },
          display: cycle % 2 === 0,
        });
        assert.equal(clone.state, 'created', JSON.stringify(clone));
        if (cycle % 2 === 0) assert.match(clone.display ?? '', /^:\d+$/);
        assert.deepEqual((await driver.destroy(clone.name)).leftovers, []);
      }
      assert.deepEqual(await settledLeftovers(), []);
    });

    it('a kill in the middle of start, then destroy, leaves nothing behind', async () => {
      const driver = createTestDriver();
      const name = cloneName(920);
      await driver.create(920, { ...spec('kill'), display: true });
      const starting = driver.start(name, { egressProxyUrl: null }).catch((error: Error) => error);
      await new Promise((resolve) => setTimeout(resolve, 700));
      assert.deepEqual((await driver.destroy(name)).leftovers, []);
      assert.ok((await starting) instanceof Error, 'start fails once its clone is destroyed');
      assert.deepEqual(await settledLeftovers(), []);
    });

    it('a fresh driver (hostd restarted) reconciles a half-made clone from the OS alone', async () => {
      await createTestDriver().create(921, spec('crashed'));
      const result = await createTestDriver().reconcile(() => true);
      assert.deepEqual(result.destroyed, [cloneName(921)]);
      assert.deepEqual(await settledLeftovers(), []);
    });
  });
}

function spec(taskId: string) {
  return {
    taskId,
    allowedDomains: [],
    limits: { memoryMb: 1024, pids: 512, cpuPercent: 100 },
    display: false,
  };
}

/** Leftovers after giving exited processes up to 3 s to be reaped. */
async function settledLeftovers(): Promise<string[]> {
  const deadline = Date.now() + 3000;
  let left = hostLeftovers();
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = hostLeftovers();
  }
  return left;
}
