import { jailDriverContract } from './jail-driver.contract.js';
import { type FakeClone, FakeDriver } from './support/fake-jail-driver.js';

const host = new Map<string, FakeClone>();
jailDriverContract('FakeDriver', (namespace) => new FakeDriver({ namespace, host }), {
  indexes: [1, 2, 3],
});
