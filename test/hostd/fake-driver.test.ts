import { jailDriverContract } from './jail-driver.contract.js';
import { FakeDriver } from './support/fake-jail-driver.js';

jailDriverContract('FakeDriver', () => new FakeDriver(), { indexes: [1, 2, 3] });
