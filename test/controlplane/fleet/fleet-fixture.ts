// A fleet on one machine for tests: a host registry on a real SQLite file and real hostd HTTP apps
// (fake clone driver) on loopback, each accepting only the token its registration made.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { createHostRegistry, type NewHost } from '../../../controlplane/src/fleet/host-registry.js';
import { createAuditLog } from '../../../controlplane/src/governance/audit/audit-log.js';
import { createAuditRepository } from '../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../controlplane/src/platform/store/database.js';
import { createHostRepository } from '../../../controlplane/src/platform/store/host-repository.js';
import { createApp } from '../../../hostd/src/app.js';
import { CloneManager } from '../../../hostd/src/clones/clone-manager.js';
import { FakeDriver } from '../../hostd/support/fake-jail-driver.js';

export interface RunningHostd {
  url: string;
  manager: CloneManager;
  /** Configures the token it accepts (503 to everything before). */
  useToken(token: string): void;
}

/** A real hostd HTTP app (fake clones) on loopback that accepts only `token` (once given). */
export async function startHostd(
  token?: string,
): Promise<RunningHostd & { close(): Promise<void> }> {
  const driver = new FakeDriver();
  const manager = new CloneManager({
    driver,
    defaultLimits: { memoryMb: 256, pids: 64, cpuPercent: 50 },
    defaultDisplay: false,
    proxyPort: 0,
    poolSize: 0,
    startTimeoutMs: 5000,
  });
  let app = token ? createApp({ token, manager, driver }) : null;
  const fetch = (request: Request) =>
    app ? app.fetch(request) : new Response('hostd has no token yet', { status: 503 });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const listening = serve({ fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(listening));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    manager,
    useToken(next) {
      app = createApp({ token: next, manager, driver });
    },
    async close() {
      await manager.close();
      // Ending the leases ends their refusal streams, but a stream that finishes after close()
      // began leaves its socket to the client's keep-alive (4 s) unless it is cut here.
      await new Promise((resolve) => {
        server.close(resolve);
        (server as Server).closeAllConnections();
      });
    },
  };
}

export function createFleetFixture() {
  const dir = mkdtempSync(join(tmpdir(), 'clawdie-fleet-'));
  const closers: (() => Promise<void> | void)[] = [];
  const clock = { now: 1_000_000 };
  let opened = 0;

  function openRegistry() {
    opened += 1;
    const path = join(dir, `fleet-${opened}.db`);
    const database = openDatabase(path);
    closers.push(() => database.close());
    const store = createHostRepository(database.db);
    const auditStore = createAuditRepository(database.db);
    const registry = createHostRegistry({
      store,
      key: () => Buffer.alloc(32, 7),
      audit: createAuditLog(auditStore, { now: () => clock.now }),
      now: () => clock.now,
      staleMs: 20_000,
    });
    /** Registers `host`, starts its hostd with the token made for it, points the row at it. */
    async function addRunningHost(host: Omit<NewHost, 'url'>, hostdToken?: string) {
      const { token } = await registry.add({ ...host, url: 'http://127.0.0.1:1' }, 'test');
      const hostd = await startHostd(hostdToken ?? token);
      closers.push(hostd.close);
      const record = await store.get(host.name);
      if (!record) throw new Error('unreachable: just added');
      await store.remove(host.name);
      await store.add({ ...record, url: hostd.url });
      return { token, hostd };
    }
    return { path, database, store, auditStore, registry, addRunningHost };
  }

  return {
    clock,
    openRegistry,
    async close() {
      for (const close of closers.reverse()) await close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
