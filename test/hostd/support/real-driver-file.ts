// For a test file of real Linux clones (root): registers its tests only where the host can run
// them (else one skipped test with the reason, or a failure under CI), holds the cross-process host
// lock for the whole file, and starts and ends with no clone of any test namespace on the host.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { skipFile } from '../../support/capabilities.js';
import { acquireHostLock } from './host-lock.js';
import {
  createTestDriver,
  linuxDriverMissing,
  settledLeftovers,
  TEST_NAMESPACES,
} from './linux-harness.js';

/** Destroys every clone of the test namespaces (only theirs: never a production hostd's). */
export async function reconcileTestNamespaces(): Promise<void> {
  for (const namespace of TEST_NAMESPACES) {
    await createTestDriver({ namespace }).reconcile(() => false);
  }
}

export function realLinuxDriverFile(name: string, register: () => void): void {
  if (skipFile(name, linuxDriverMissing())) return;
  let releaseHostLock = () => {};
  before(async () => {
    releaseHostLock = await acquireHostLock();
    await reconcileTestNamespaces();
  });
  after(async () => {
    try {
      await reconcileTestNamespaces();
      assert.deepEqual(await settledLeftovers(), []);
    } finally {
      releaseHostLock();
    }
  });
  register();
}
