// The real hostd app over the fake clone driver, reached in-process by a real HostdClient: what
// hostd's route tests build. Managers made through `fakeHostdApps()` close after each test.
import { afterEach } from 'node:test';
import { HostdClient } from '../../../hostd/src/api/client.js';
import { createApp } from '../../../hostd/src/app.js';
import { CloneManager } from '../../../hostd/src/clones/clone-manager.js';
import { FakeDriver } from './fake-jail-driver.js';

export const FAKE_HOSTD_TOKEN = 'test-token-0123456789';
export const FAKE_HOSTD_LIMITS = { memoryMb: 1024, pids: 512, cpuPercent: 100 };

/** Call at the top of a test file: returns `setup(poolSize)`, one hostd app per call. */
export function fakeHostdApps() {
  const managers: CloneManager[] = [];
  afterEach(async () => {
    for (const manager of managers.splice(0)) await manager.close();
  });
  return function setup(poolSize = 0) {
    const driver = new FakeDriver();
    const manager = new CloneManager({
      driver,
      defaultLimits: FAKE_HOSTD_LIMITS,
      defaultDisplay: false,
      proxyPort: 0,
      poolSize,
      startTimeoutMs: 5000,
    });
    managers.push(manager);
    const app = createApp({ token: FAKE_HOSTD_TOKEN, manager, driver });
    const client = new HostdClient({
      baseUrl: 'http://hostd.test',
      token: FAKE_HOSTD_TOKEN,
      fetch: async (input, init) => app.request(input, init),
    });
    return { driver, manager, app, client };
  };
}
