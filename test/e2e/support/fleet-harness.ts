// A fleet on one machine, for real (root): hostd instances with the real Linux driver, each in its
// own clone namespace, registered with `clawdie hosts add` (its command code) on a controlplane
// with CLAWDIE_FLEET=on. Used by test/e2e/fleet-tasks.test.ts and bench/fleet-tasks.ts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../../controlplane/src/config.js';
import { runHostsCommand } from '../../../controlplane/src/ingress/cli/hosts-command.js';
import type { RunningDemoSite } from '../../../controlplane/src/platform/demo/demo-site-server.js';
import { createApp as createHostdApp } from '../../../hostd/src/app.js';
import { CloneManager } from '../../../hostd/src/clones/clone-manager.js';
import type { CloneNamespace } from '../../../hostd/src/drivers/clone-namespace.js';
import { createAddressPolicy } from '../../../hostd/src/proxy/address-policy.js';
import { createTestDriver } from '../../hostd/support/linux-harness.js';
import {
  createTestControlplane,
  type TestControlplane,
  testConfig,
} from '../../support/controlplane.js';
import { closeServer, serveOnLoopback } from './hostd-controlplane.js';

/** A path of hostd's relay to a clone's jail-service (what follows is the jail-service's path). */
const RELAY_PATH = /^\/clones\/[^/]+\/leases\/[^/]+\/service(\/.*)$/;

export type RealHostd = Awaited<ReturnType<typeof startRealHostd>>;

/**
 * A real hostd in `namespace` whose token is set once registration made it; counts creations and
 * the requests it relayed to its clones (by jail-service path), keeps its clones' jail-service
 * lines. Dark: its API answers 503.
 */
export async function startRealHostd(namespace: CloneNamespace, sites: readonly string[]) {
  // The clones' jail-service lines, the last 200, for a failing drill's message.
  const serviceLines: string[] = [];
  const driver = createTestDriver({
    namespace,
    onServiceLine: (name, line) => {
      serviceLines.push(`${name}: ${line}`);
      if (serviceLines.length > 200) serviceLines.shift();
    },
  });
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
  let dark = false;
  const created: string[] = [];
  const relayed: string[] = [];
  const served = await serveOnLoopback(async (request) => {
    // Dark: hostd's API is gone (its clones, separate processes, go on running).
    if (!app || dark) return new Response('hostd is not answering', { status: 503 });
    const response = await app.fetch(request);
    const { pathname } = new URL(request.url);
    if (request.method === 'POST' && pathname === '/clones' && response.ok)
      created.push(namespace.name);
    const relay = RELAY_PATH.exec(pathname);
    if (relay?.[1] && response.ok) relayed.push(relay[1]);
    return response;
  });
  return {
    url: served.url,
    manager,
    created,
    relayed,
    serviceLines,
    useToken: (token: string) => {
      app = createHostdApp({ token, manager, driver });
    },
    setDark: (value: boolean) => {
      dark = value;
    },
    async close() {
      closeServer(served);
      await manager.close();
    },
  };
}

export interface Fleet {
  hosts: RealHostd[];
  controlplane: TestControlplane;
  close(): Promise<void>;
}

/**
 * Hosts `h0`, `h1`, … in `namespaces`, each of `capacity`, reaching `site` (an exact egress
 * exception), and a fleet controlplane of `concurrency` (fleetConfig).
 */
export async function startFleet(options: {
  namespaces: readonly CloneNamespace[];
  capacity: number;
  concurrency: number;
  site: RunningDemoSite;
}): Promise<Fleet> {
  const sites = [new URL(options.site.url).host];
  const hosts: RealHostd[] = [];
  for (const namespace of options.namespaces) hosts.push(await startRealHostd(namespace, sites));
  const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-fleet-'));
  const config = fleetConfig(dataDir, sites, { concurrency: options.concurrency });
  const close = async (controlplane?: TestControlplane) => {
    await controlplane?.close();
    for (const host of hosts) await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (const [index, host] of hosts.entries())
      host.useToken(await registerHost(config, `h${index}`, host.url, options.capacity));
    const controlplane = await createTestControlplane({ config, browsers: 'config' });
    return { hosts, controlplane, close: () => close(controlplane) };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * A fleet controlplane's config over `dataDir` (CLAWDIE_FLEET=on, the shortest heartbeat there
 * is: 500 ms, a host lost after 1 s without a good answer), its default tenant's policy written
 * in `dataDir`/policies allowing every domain and the loopback `sites`.
 */
export function fleetConfig(
  dataDir: string,
  sites: readonly string[],
  options: { concurrency: number; env?: Record<string, string> },
) {
  const policyDir = join(dataDir, 'policies');
  mkdirSync(policyDir, { recursive: true });
  writeFileSync(
    join(policyDir, 'default.yaml'),
    `tenant: default\ndomains: { allow: ["*", ${sites.map((site) => JSON.stringify(site)).join(', ')}] }\nmax_steps: 100\n`,
  );
  return testConfig({
    CLAWDIE_DATA_DIR: dataDir,
    CLAWDIE_POLICY_DIR: policyDir,
    CLAWDIE_FLEET: 'on',
    CLAWDIE_FLEET_HEARTBEAT_MS: '500',
    CLAWDIE_FLEET_STALE_MS: '1000',
    CLAWDIE_HOSTD_CONCURRENCY: String(options.concurrency),
    ...options.env,
  });
}

/** `clawdie hosts add NAME --url URL --capacity N --label os=linux` (its command code): the token. */
export async function registerHost(
  config: Readonly<Config>,
  name: string,
  url: string,
  capacity: number,
): Promise<string> {
  let token = '';
  const command = {
    name: 'hosts-add',
    host: name,
    url,
    labels: { os: 'linux' },
    capacity,
  } as const;
  await runHostsCommand(command, config, (text) => {
    token += text;
  });
  return token.trim();
}
