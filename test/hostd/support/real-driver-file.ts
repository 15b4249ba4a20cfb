// For a test file of real Linux clones (root): registers its tests only where the host can run
// them (else one skipped test with the reason, or a failure under CI), holds the cross-process host
// lock for the whole file, and starts and ends with no clone of any test on the host.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { skipFile } from '../../support/capabilities.js';
import { acquireHostLock } from './host-lock.js';
import { createTestDriver, linuxDriverMissing, settledLeftovers } from './linux-harness.js';

export function realLinuxDriverFile(name: string, register: () => void): void {
  if (skipFile(name, linuxDriverMissing())) return;
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
  register();
}
