// The controlplane against a real in-process hostd (root, real Linux driver) for e2e tests: hostd's
// HTTP app on loopback and the composition root pointed at it with CLAWDIE_HOSTD_URL, exactly as
// `npm start` with an external hostd. Holds the cross-process host lock from start to close, because clones
// are host-global.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import type { Logger } from 'pino';
import type { VisionModel } from '../../../controlplane/src/agent/model/chat-types.js';
import { createApp as createHostdApp } from '../../../hostd/src/app.js';
import { CloneManager } from '../../../hostd/src/clones/clone-manager.js';
import { createAddressPolicy } from '../../../hostd/src/proxy/address-policy.js';
import { acquireHostLock } from '../../hostd/support/host-lock.js';
import { createTestDriver, hostLeftovers } from '../../hostd/support/linux-harness.js';
import { createTestControlplane, type TestControlplane } from '../../support/controlplane.js';

export interface HostdControlplane {
  manager: CloneManager;
  hostd: { server: Server; url: string };
  controlplane: TestControlplane;
  /** The clones' jail-service stderr lines (warnings and up), newest last, at most 200. */
  serviceLines: string[];
  close(): Promise<void>;
}

/** Serves `fetch` on 127.0.0.1 at a free port. */
export function serveOnLoopback(fetch: (request: Request) => Response | Promise<Response>) {
  const server = createAdaptorServer({ fetch }) as Server;
  return new Promise<{ server: Server; url: string }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

export function closeServer(served: { server: Server } | undefined): void {
  served?.server.closeAllConnections();
  served?.server.close();
}

/** Leftovers can take a moment to vanish after the last kill (process reaping). */
export async function settledLeftovers(): Promise<string[]> {
  for (let attempt = 0; ; attempt += 1) {
    const left = hostLeftovers();
    if (left.length === 0 || attempt >= 30) return left;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface HostdControlplaneOptions {
  concurrency?: number;
  /**
   * Loopback fixture sites (`127.0.0.1:port`) the clones must reach: each becomes an exact egress
   * exception of hostd (as CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL would) and is added to the default
   * tenant policy next to `*`. Nothing else on the host is reachable from a clone.
   */
  sites?: readonly string[];
  /** More YAML for the default tenant's policy (e.g. a `credentials:` section). */
  policyExtra?: string;
  /** The platform's logger (default: silent). */
  logger?: Logger;
  /** The model of the controlplane's own task service (its REST API, MCP); default none. */
  model?: VisionModel;
}

export async function startHostdControlplane(
  options: HostdControlplaneOptions = {},
): Promise<HostdControlplane> {
  const sites = options.sites ?? [];
  const release = await acquireHostLock();
  const token = `hostd-e2e-${process.pid}-0123456789`;
  const serviceLines: string[] = [];
  const driver = createTestDriver({
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
  const hostd = await serveOnLoopback(createHostdApp({ token, manager, driver }).fetch);
  const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-hostd-e2e-'));
  const close = async (controlplane?: TestControlplane) => {
    await controlplane?.close();
    closeServer(hostd);
    await manager.close();
    rmSync(dataDir, { recursive: true, force: true });
    release();
  };
  try {
    const policyDir = join(dataDir, 'policies');
    mkdirSync(policyDir);
    const allow = ['*', ...sites].map((site) => JSON.stringify(site)).join(', ');
    writeFileSync(
      join(policyDir, 'default.yaml'),
      `tenant: default\ndomains: { allow: [${allow}] }\nmax_steps: 100\n${options.policyExtra ?? ''}`,
    );
    const controlplane = await createTestControlplane({
      browsers: 'config',
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.model ? { model: options.model } : {}),
      env: {
        CLAWDIE_POLICY_DIR: policyDir,
        CLAWDIE_DATA_DIR: dataDir,
        CLAWDIE_HOSTD_URL: hostd.url,
        CLAWDIE_HOSTD_TOKEN: token,
        CLAWDIE_HOSTD_CONCURRENCY: String(options.concurrency ?? 4),
      },
    });
    return { manager, hostd, controlplane, serviceLines, close: () => close(controlplane) };
  } catch (error) {
    await close();
    throw error;
  }
}
