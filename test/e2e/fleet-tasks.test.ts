// A fleet on one machine, for real (root): two hostd with the real Linux driver, each in its own
// clone namespace, registered with `clawdie hosts add` (its command code), and a controlplane with
// CLAWDIE_FLEET=on that places four demo tasks at once over them, each in a real clone.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runDemo } from '../../controlplane/src/ingress/cli/demo-command.js';
import { runHostsCommand } from '../../controlplane/src/ingress/cli/hosts-command.js';
import {
  demoTask,
  type RunningDemoSite,
  startDemoSite,
} from '../../controlplane/src/platform/demo/demo-site-server.js';
import { createApp as createHostdApp } from '../../hostd/src/app.js';
import { CloneManager } from '../../hostd/src/clones/clone-manager.js';
import type { CloneNamespace } from '../../hostd/src/drivers/clone-namespace.js';
import { createAddressPolicy } from '../../hostd/src/proxy/address-policy.js';
import { acquireHostLock } from '../hostd/support/host-lock.js';
import {
  createTestDriver,
  linuxDriverMissing,
  TEST_NAMESPACE,
  TEST_OTHER_NAMESPACE,
} from '../hostd/support/linux-harness.js';
import { skipFile } from '../support/capabilities.js';
import {
  createTestControlplane,
  type TestControlplane,
  testConfig,
} from '../support/controlplane.js';
import { closeServer, serveOnLoopback, settledLeftovers } from './support/hostd-controlplane.js';

const missing = linuxDriverMissing();

/** A real hostd in `namespace` whose token is set once registration made it; counts creations. */
async function startRealHostd(namespace: CloneNamespace, sites: readonly string[]) {
  const driver = createTestDriver({ namespace });
  const manager = new CloneManager({
    driver,
    defaultLimits: { memoryMb: 2048, pids: 1024, cpuPercent: 200 },
    defaultDisplay: false,
    proxyPort: 3128,
    poolSize: 0,
    startTimeoutMs: 30_000,
    addressPolicy: createAddressPolicy({ internalExceptions: sites }),
  });
  await manager.reconcile();
  let app: ReturnType<typeof createHostdApp> | null = null;
  const created: string[] = [];
  const served = await serveOnLoopback(async (request) => {
    if (!app) return new Response('no token yet', { status: 503 });
    const response = await app.fetch(request);
    if (request.method === 'POST' && new URL(request.url).pathname === '/clones' && response.ok)
      created.push(namespace.name);
    return response;
  });
  return {
    url: served.url,
    manager,
    created,
    useToken: (token: string) => {
      app = createHostdApp({ token, manager, driver });
    },
    async close() {
      closeServer(served);
      await manager.close();
    },
  };
}

if (!skipFile('a fleet of two real hostd (real Linux driver)', missing)) {
  describe('a fleet of two real hostd (real Linux driver)', () => {
    let release: () => void;
    let site: RunningDemoSite;
    let hosts: Awaited<ReturnType<typeof startRealHostd>>[] = [];
    let controlplane: TestControlplane;
    let dataDir: string;
    before(async () => {
      release = await acquireHostLock();
      site = await startDemoSite();
      const sites = [new URL(site.url).host];
      hosts = [
        await startRealHostd(TEST_NAMESPACE, sites),
        await startRealHostd(TEST_OTHER_NAMESPACE, sites),
      ];
      dataDir = mkdtempSync(join(tmpdir(), 'clawdie-fleet-e2e-'));
      const policyDir = join(dataDir, 'policies');
      mkdirSync(policyDir);
      writeFileSync(
        join(policyDir, 'default.yaml'),
        `tenant: default\ndomains: { allow: ["*", ${JSON.stringify(sites[0])}] }\nmax_steps: 100\n`,
      );
      const config = testConfig({
        CLAWDIE_DATA_DIR: dataDir,
        CLAWDIE_POLICY_DIR: policyDir,
        CLAWDIE_FLEET: 'on',
        CLAWDIE_HOSTD_CONCURRENCY: '4',
      });
      for (const [index, host] of hosts.entries()) {
        let token = '';
        await runHostsCommand(
          {
            name: 'hosts-add',
            host: `h${index}`,
            url: host.url,
            labels: { os: 'linux' },
            capacity: 2,
          },
          config,
          (text) => {
            token += text;
          },
        );
        host.useToken(token.trim());
      }
      controlplane = await createTestControlplane({ config, browsers: 'config' });
    });
    after(async () => {
      await controlplane?.close();
      for (const host of hosts) await host.close();
      await site?.close();
      rmSync(dataDir, { recursive: true, force: true });
      release?.();
    });

    it('runs four tasks at once, two clones on each host, and leaves nothing behind', async () => {
      const runs = await Promise.all(
        [1, 2, 3, 4].map(() => runDemo(controlplane.createTasks, { site })),
      );
      for (const { result } of runs) {
        assert.equal(result.status, 'finished', JSON.stringify(result));
        assert.equal(result.summary, demoTask.expectedValue);
      }
      assert.deepEqual(
        hosts.map((host) => host.created.length),
        [2, 2],
      );
      for (const host of hosts) assert.deepEqual(await host.manager.list(), []);
      assert.deepEqual(await settledLeftovers(), []);
    });
  });
}
