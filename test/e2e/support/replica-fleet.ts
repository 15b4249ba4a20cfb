// Controlplane replicas on one PostgreSQL database over a fleet of real hostd PROCESSES (main.ts,
// real Linux driver, root), each in its own clone namespace, registered once in the shared hosts
// table with `clawdie hosts add` (its command code). The replicas run in this process through the
// same composition root as `npm start`, each with its own data dir holding a copy of the first
// one's audit key and secrets key: the vault key seals the host tokens in the database, so a
// replica without it cannot reach a host (docs/operations.md). Used by
// test/e2e/replica-fleet.test.ts and bench/replicas-hosts.ts.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clone } from '@clawdie/hostd/api';
import { HostdClient } from '@clawdie/hostd/client';
import type { RunningDemoSite } from '../../../controlplane/src/platform/demo/demo-site-server.js';
import type { CloneNamespace } from '../../../hostd/src/drivers/clone-namespace.js';
import { type RunningHostd, startHostdProcess } from '../../hostd/support/hostd-process.js';
import { createTestDriver, TEST_HOSTD_ENV } from '../../hostd/support/linux-harness.js';
import { createTestControlplane, type TestControlplane } from '../../support/controlplane.js';
import { fleetConfig, registerHost } from './fleet-harness.js';

/** How long a host may go without a good heartbeat (every 500 ms) before it is lost. */
export const STALE_MS = 2500;

/** A registered host whose hostd is a real process; `kill` is `kill -9`, `restart` the same hostd again. */
export interface HostProcess {
  name: string;
  namespace: CloneNamespace;
  /** hostd's URL as registered (a fixed port, so a restarted hostd answers at the same place). */
  url: string;
  /** The running hostd's pid, null while it is killed. */
  pid(): number | null;
  /** Its clones as hostd lists them (leased and warm). */
  clones(): Promise<Clone[]>;
  kill(): Promise<void>;
  /** Starts it again: its reconcile destroys every clone the killed one left in its namespace. */
  restart(): Promise<void>;
  /** SIGTERM: hostd destroys its clones and exits. */
  stop(): Promise<void>;
}

export interface ReplicaFleet {
  hosts: HostProcess[];
  replicas: TestControlplane[];
  close(): Promise<void>;
}

/** A free TCP port on loopback (free when asked: hostd binds it a moment later). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Starts the real hostd of `name` in `namespace` on `port` with `token`; clones may reach the
 * loopback `sites` (exact egress exceptions). It stops (destroying its clones) if this process
 * dies.
 */
async function startHostProcess(
  name: string,
  namespace: CloneNamespace,
  options: { port: number; token: string; sites: readonly string[] },
): Promise<HostProcess> {
  // Makes the checkout reachable for the clone users (as every real-driver test does).
  createTestDriver({ namespace });
  const url = `http://127.0.0.1:${options.port}`;
  const env = {
    ...TEST_HOSTD_ENV,
    CLAWDIE_HOSTD_NAMESPACE: namespace.name,
    CLAWDIE_HOSTD_TOKEN: options.token,
    CLAWDIE_HOSTD_PORT: String(options.port),
    CLAWDIE_HOSTD_POOL_SIZE: '0',
    CLAWDIE_HOSTD_PIDS: '1024',
    CLAWDIE_HOSTD_CPU_PERCENT: '200',
    CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL: options.sites.join(','),
    CLAWDIE_LOG_LEVEL: 'info',
  };
  const start = () => startHostdProcess(env, { stopWithParent: true });
  let running: RunningHostd | null = await start();
  const client = new HostdClient({ baseUrl: url, token: options.token, timeoutMs: 5000 });
  return {
    name,
    namespace,
    url,
    pid: () => running?.pid ?? null,
    clones: () => client.listClones(),
    async kill() {
      await running?.kill();
      running = null;
    },
    async restart() {
      running ??= await start();
    },
    async stop() {
      await running?.stop();
      running = null;
    },
  };
}

/**
 * `replicas` fleet controlplanes (concurrency `concurrency` each) on `databaseUrl`, over hosts
 * `h0`, `h1`, … in `namespaces` (capacity `capacity` each) reaching `site`; a host is lost after
 * STALE_MS without a good heartbeat.
 */
export async function startReplicaFleet(options: {
  databaseUrl: string;
  namespaces: readonly CloneNamespace[];
  replicas: number;
  capacity: number;
  concurrency: number;
  site: RunningDemoSite;
}): Promise<ReplicaFleet> {
  const sites = [new URL(options.site.url).host];
  const work = mkdtempSync(join(tmpdir(), 'clawdie-replica-fleet-'));
  const configs = Array.from({ length: options.replicas }, (_, index) => {
    const dataDir = join(work, `r${index}`);
    mkdirSync(dataDir, { mode: 0o700 });
    return fleetConfig(dataDir, sites, {
      concurrency: options.concurrency,
      // A hostd process answers its heartbeat (which lists its clones through the driver's
      // commands) in over a second while clones start on a loaded 2-core machine: 1 s of
      // staleness lost healthy hosts there, 1 run in 3.
      env: { CLAWDIE_DATABASE_URL: options.databaseUrl, CLAWDIE_FLEET_STALE_MS: String(STALE_MS) },
    });
  });
  const hosts: HostProcess[] = [];
  const replicas: TestControlplane[] = [];
  const close = async () => {
    for (const replica of replicas.splice(0)) await replica.close();
    await Promise.all(hosts.splice(0).map((host) => host.stop()));
    rmSync(work, { recursive: true, force: true });
  };
  try {
    const [first, ...others] = configs;
    if (!first) throw new Error('a fleet needs a replica');
    // Registered once, in the shared table, through the first replica's keys.
    const registered: { namespace: CloneNamespace; port: number; token: string }[] = [];
    for (const [index, namespace] of options.namespaces.entries()) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      registered.push({
        namespace,
        port,
        token: await registerHost(first, `h${index}`, url, options.capacity),
      });
    }
    for (const config of others) {
      mkdirSync(join(config.dataDir, 'keys'), { mode: 0o700 });
      copyFileSync(first.auditKeyFile, config.auditKeyFile);
      copyFileSync(first.secretsKeyFile, config.secretsKeyFile);
    }
    const started = await Promise.allSettled(
      registered.map(({ namespace, ...endpoint }, index) =>
        startHostProcess(`h${index}`, namespace, { ...endpoint, sites }),
      ),
    );
    for (const each of started) if (each.status === 'fulfilled') hosts.push(each.value);
    for (const each of started) if (each.status === 'rejected') throw each.reason;
    for (const config of configs)
      replicas.push(await createTestControlplane({ config, browsers: 'config' }));
    return { hosts, replicas, close };
  } catch (error) {
    await close();
    throw error;
  }
}
