// A lease's connections to its clone's jail-service are its own and end with it. Before, every
// client shared the process's fetch pool: a kept-alive connection to a destroyed clone stayed
// pooled for ~4 s, and a restarted hostd hands out the same address and port again (its clone 1
// is where the last one's was), so the next task's first request went down the dead clone's
// connection and failed with ECONNRESET (seen in CI: test/hostd/hostd-owner.test.ts).
//
// The jail-service is a real HTTP server on loopback that records which connection carried each
// request; hostd is a fake client that hands every lease that server's address, as a restarted
// hostd would.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { BrowserLease } from '../../../../controlplane/src/browser/provider/browser-provider.js';
import { createHostdBrowserProvider } from '../../../../controlplane/src/browser/provider/hostd-browser-provider.js';
import { jailCall } from '../../../../controlplane/src/browser/provider/jail-call.js';
import type { LeasedClone } from '../../../../hostd/src/api/schema.js';
import { silentLogger } from '../../../support/silent-logger.js';

interface Seen {
  /** The client port of each request's connection, in order. */
  ports: number[];
  /** Client ports of connections the server has seen close. */
  closed: Set<number>;
}

function jailServiceStandIn(): { server: Server; seen: Seen } {
  const seen: Seen = { ports: [], closed: new Set() };
  const server = createServer((request, response) => {
    seen.ports.push(request.socket.remotePort ?? -1);
    response.setHeader('content-type', 'application/json');
    response.end('{"ok":true}');
  });
  server.keepAliveTimeout = 30_000;
  server.on('connection', (socket: Socket) => {
    const port = socket.remotePort ?? -1;
    socket.on('close', () => seen.closed.add(port));
  });
  return { server, seen };
}

function providerHandingOut(url: string) {
  let index = 0;
  const ends = new Map<string, () => void>();
  return createHostdBrowserProvider({
    logger: silentLogger,
    client: {
      createClone: async (request) => {
        index += 1;
        return {
          name: `browsertask00${index}`,
          index: 1,
          generation: index,
          leaseId: `lease-${index}`.padEnd(22, '0'),
          taskId: request.taskId,
          state: 'running',
          service: { url, token: 'clone-token' },
          isolation: { level: 'full', reasons: [] },
          allowedDomains: [...(request.allowedDomains ?? [])],
          limits: { memoryMb: 2048, pids: 512, cpuPercent: 100 },
          display: null,
          egressProxyUrl: 'http://10.78.0.5:3128',
          fromPool: false,
          createdAt: new Date(0).toISOString(),
          readyMs: 1,
        } satisfies LeasedClone;
      },
      destroyClone: async (lease) => {
        ends.get(lease.name)?.();
        return { name: lease.name, destroyed: true, leftovers: [] } as never;
      },
      followEgressRefusals: (lease) =>
        new Promise((resolve) => {
          ends.set(lease.name, () => resolve({ ended: true, lastSeq: 0 }));
        }),
      egressRefusals: async () => [],
    },
  });
}

/** Three calls through the lease's clients; the client ports of the connections they went on. */
async function calls(lease: BrowserLease): Promise<Set<number>> {
  if (!lease.service) throw new Error('the lease has no jail-service');
  const from = seen.ports.length;
  for (let n = 0; n < 3; n++) {
    const response = await jailCall(lease.service)('/health', {}, { timeoutMs: 5000 });
    assert.deepEqual(await response.json(), { ok: true });
  }
  return new Set(seen.ports.slice(from));
}

async function until(check: () => boolean, what: string, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const { server, seen } = jailServiceStandIn();

describe('a lease owns its connections to the jail-service', () => {
  let url = '';
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('closes every connection of the lease when it is released, and calls no more', async () => {
    const lease = await providerHandingOut(url).acquire({ taskId: 't1', allowedDomains: [] });
    const ports = await calls(lease);
    // The server keeps connections 30 s: only the client closes them this soon.
    assert.deepEqual(
      [...ports].filter((port) => seen.closed.has(port)),
      [],
    );
    await lease.release();
    await until(() => [...ports].every((port) => seen.closed.has(port)), 'all closed');
    await assert.rejects(calls(lease), { code: 'OPERATOR_UNAVAILABLE' });
  });

  it('never carries a call of the next lease at the same address on a connection of the last', async () => {
    const provider = providerHandingOut(url);
    const earlier = await provider.acquire({ taskId: 't2', allowedDomains: [] });
    const earlierPorts = await calls(earlier);
    const later = await provider.acquire({ taskId: 't3', allowedDomains: [] });
    const laterPorts = await calls(later);
    assert.deepEqual(
      [...laterPorts].filter((port) => earlierPorts.has(port)),
      [],
    );
    await earlier.release();
    await until(() => [...earlierPorts].every((port) => seen.closed.has(port)), 'all closed');
    assert.ok((await calls(later)).size > 0, 'the later lease still calls');
    await later.release();
  });
});
