// `npm run test:soak`: the real Linux driver's leak and kill runs at full size (100 cycles, 20 kills
// mid-start, 20 API cycles) and 8 clones running at once. Root only, under the host lock; exits
// non-zero on any leftover (namespaces, links, cgroups, processes, displays, proxies, directories).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cloneName } from '../../hostd/src/drivers/jail-driver.js';
import { createTestDriver, settledLeftovers } from '../hostd/support/linux-harness.js';
import { leakSpec, registerLeakTests, SOAK_LEAK_SIZES } from '../hostd/support/linux-leaks.js';
import { realLinuxDriverFile } from '../hostd/support/real-driver-file.js';

const CONCURRENT = 8;

realLinuxDriverFile('soak: real Linux clones', () => {
  registerLeakTests(SOAK_LEAK_SIZES);

  describe(`${CONCURRENT} clones at once`, () => {
    it('start together, each answers its own token, and all go without a trace', async (t) => {
      const driver = createTestDriver();
      const indexes = Array.from({ length: CONCURRENT }, (_, i) => 930 + i);
      t.after(async () => {
        for (const index of indexes) await driver.destroy(cloneName(index, driver.namespace));
      });
      const started = performance.now();
      const clones = await Promise.all(
        indexes.map(async (index) => {
          const clone = await driver.create(index, leakSpec(`soak-${index}`, index % 2 === 0));
          return driver.start(clone.name, { egressProxyUrl: null });
        }),
      );
      t.diagnostic(`${CONCURRENT} clones ready in ${(performance.now() - started).toFixed(0)} ms`);
      for (const clone of clones) {
        assert.ok(clone.service, clone.name);
        const own = await fetch(`${clone.service.url}/health`, {
          headers: { authorization: `Bearer ${clone.service.token}` },
        });
        assert.equal(own.status, 200, clone.name);
        const other = clones.find((candidate) => candidate !== clone)?.service;
        const foreign = await fetch(`${clone.service.url}/health`, {
          headers: { authorization: `Bearer ${other?.token}` },
        });
        assert.equal(foreign.status, 401, `${clone.name} accepted another clone's token`);
      }
      for (const clone of clones) {
        assert.deepEqual((await driver.destroy(clone.name)).leftovers, [], clone.name);
      }
      assert.deepEqual(await settledLeftovers(), []);
    });
  });
});
