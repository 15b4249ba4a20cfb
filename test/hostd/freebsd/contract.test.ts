// The shared JailDriver contract suite, run against the FreeBSD driver on the fake FreeBSD host.
import assert from 'node:assert/strict';
import { jailDriverContract } from '../jail-driver.contract.js';
import { createDriver, FakeFreeBSD } from './driver-fixture.js';

const fake = new FakeFreeBSD();

jailDriverContract(
  'FreeBsdDriver on FakeFreeBSD',
  (namespace) => createDriver(fake, 'token', namespace),
  {
    indexes: [11, 12, 13],
    checkService: async (url, token) => {
      assert.equal(await fake.healthCheck(url, token), true, `${url} did not answer`);
    },
  },
);
