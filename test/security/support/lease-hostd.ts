// hostd's real HTTP API on loopback over the fake driver (real egress proxies on 127.0.0.1), and
// the controlplane (its composition root, CLAWDIE_HOSTD_URL pointing there) with its real hostd
// browser provider and audit log on SQLite: the pieces the lease reproductions attack.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'node:test';
import { createAdaptorServer } from '@hono/node-server';
import { HostdClient } from '../../../hostd/src/api/client.js';
import { createApp } from '../../../hostd/src/app.js';
import { CloneManager, type CloneManagerOptions } from '../../../hostd/src/clones/clone-manager.js';
import { FakeDriver } from '../../hostd/support/fake-jail-driver.js';
import { createTestControlplane } from '../../support/controlplane.js';

export const TOKEN = 'security-test-token-0123456789';

export async function startLeaseHostd(options: Partial<CloneManagerOptions> = {}) {
  const driver = new FakeDriver();
  const manager = new CloneManager({
    driver,
    defaultLimits: { memoryMb: 1024, pids: 512, cpuPercent: 100 },
    defaultDisplay: false,
    proxyPort: 0,
    poolSize: 0,
    startTimeoutMs: 5000,
    ...options,
  });
  const app = createApp({ token: TOKEN, manager, driver });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new HostdClient({ baseUrl: url, token: TOKEN });
  const controlplane = await createTestControlplane({
    browsers: 'config',
    env: { CLAWDIE_HOSTD_URL: url, CLAWDIE_HOSTD_TOKEN: TOKEN },
  });
  const { audit } = controlplane;
  const { provider } = controlplane.source;
  return {
    driver,
    manager,
    url,
    client,
    provider,
    audit,
    /** A raw request to hostd, as a stale or hostile caller would send it. */
    async raw(method: string, path: string, lease?: string) {
      const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` };
      if (lease !== undefined) headers['clawdie-lease'] = lease;
      const response = await fetch(`${url}${path}`, { method, headers });
      return { status: response.status, body: (await response.json().catch(() => null)) as never };
    },
    /** Ends a lease with a raw `DELETE /clones/:name` carrying it; hostd must answer 200. */
    async destroy(clone: { name: string; leaseId: string }) {
      const answer = await this.raw('DELETE', `/clones/${clone.name}`, clone.leaseId);
      if (answer.status !== 200) throw new Error(`DELETE ${clone.name}: ${answer.status}`);
    },
    /** The host-side egress proxy URL of a clone the fake driver holds. */
    proxyOf(name: string): string {
      const proxy = driver.clones.get(name)?.proxy;
      if (!proxy) throw new Error(`${name} has no proxy`);
      return proxy;
    },
    /** The `egress-refused` hosts audited for a task, oldest first. */
    async refusedHosts(taskId: string): Promise<string[]> {
      return (await audit.list({ taskId, limit: 1000 }))
        .filter((row) => row.type === 'egress-refused')
        .map((row) => String(row.data.host));
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await controlplane.close();
      await manager.close();
    },
  };
}

/** Polls `check` until it returns true or `timeoutMs` passes; returns the last answer. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return check();
}

type LeaseHostd = Awaited<ReturnType<typeof startLeaseHostd>>;

/**
 * For a test file: a `start(options)` that starts a hostd like startLeaseHostd and closes every
 * one it started after each test.
 */
export function leaseHostdPerTest(): (
  options?: Partial<CloneManagerOptions>,
) => Promise<LeaseHostd> {
  const started: LeaseHostd[] = [];
  afterEach(async () => {
    for (const hostd of started.splice(0)) await hostd.close();
  });
  return async (options = {}) => {
    const hostd = await startLeaseHostd(options);
    started.push(hostd);
    return hostd;
  };
}
