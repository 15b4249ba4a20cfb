// The real Linux driver, as root: the JailDriver contract, network isolation and egress, and leak
// cycles. One file, and under the cross-process host lock, because clone namespaces are host-global
// and tests must not reconcile each other's clones. Skips (printing what is missing) only where the
// host cannot run it.
import assert from 'node:assert/strict';
import { jailDriverContract } from './jail-driver.contract.js';
import { createTestDriver, TEST_NAMESPACE, TEST_OTHER_NAMESPACE } from './support/linux-harness.js';
import { registerIsolationTests } from './support/linux-isolation.js';
import { registerLeakTests } from './support/linux-leaks.js';
import { registerReducedIsolationTests } from './support/linux-reduced.js';
import { registerStartLogTests } from './support/linux-start-logs.js';
import { realLinuxDriverFile } from './support/real-driver-file.js';

realLinuxDriverFile('real Linux driver', () => {
  jailDriverContract('LinuxDriver (root)', (namespace) => createTestDriver({ namespace }), {
    indexes: [901, 902, 903],
    namespaces: { own: TEST_NAMESPACE, other: TEST_OTHER_NAMESPACE },
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
  registerLeakTests();
  registerReducedIsolationTests();
  registerStartLogTests();
});
