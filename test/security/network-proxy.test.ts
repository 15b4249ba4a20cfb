// Issue 12, found item 1, at the proxy: a clone's egress proxy over real sockets on loopback. A
// page's request to a host service (the controlplane on 127.0.0.1) must not get through, whether
// the allowlist names the bare host or its exact port; only an admin exception naming that exact
// address:port opens it, and nothing next to it.
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createAddressPolicy } from '../../hostd/src/proxy/address-policy.js';
import {
  type EgressProxy,
  type RefusedAttempt,
  startEgressProxy,
} from '../../hostd/src/proxy/egress-proxy.js';

interface StandIn {
  server: Server;
  port: number;
  /** Every request the stand-in received (method and body). */
  received: string[];
}

/** A loopback HTTP server standing in for a host service such as the controlplane. */
async function startStandIn(): Promise<StandIn> {
  const received: string[] = [];
  const server = createServer((incoming, outgoing) => {
    let body = '';
    incoming.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    incoming.on('end', () => {
      received.push(`${incoming.method} ${body}`);
      outgoing.end('stand-in answered');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, received };
}

/** What the browser sends for http:// through a proxy: the absolute URL. */
function proxiedPost(proxy: EgressProxy, url: string, body: string): Promise<number | string> {
  const { hostname, port } = new URL(proxy.url);
  return new Promise((resolve) => {
    const outgoing = request(
      {
        host: hostname,
        port,
        method: 'POST',
        path: url,
        headers: { 'content-type': 'text/plain' },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    outgoing.on('error', (error) => resolve(`error ${(error as NodeJS.ErrnoException).code}`));
    outgoing.end(body);
  });
}

/** What the browser sends for https:// (and WebSockets) through a proxy. */
function proxiedConnect(proxy: EgressProxy, target: string): Promise<number | string> {
  const { hostname, port } = new URL(proxy.url);
  return new Promise((resolve) => {
    const outgoing = request({ host: hostname, port, method: 'CONNECT', path: target });
    outgoing.on('connect', (response, socket) => {
      socket.destroy();
      resolve(response.statusCode ?? 0);
    });
    outgoing.on('response', (response) => resolve(response.statusCode ?? 0));
    outgoing.on('error', (error) => resolve(`error ${(error as NodeJS.ErrnoException).code}`));
    outgoing.end();
  });
}

describe('egress proxy over real sockets: the host’s loopback is off limits', () => {
  let controlplane: StandIn;
  let neighbour: StandIn;
  const proxies: EgressProxy[] = [];
  const refusals: RefusedAttempt[] = [];

  const proxyFor = async (allowedDomains: string[], internalExceptions: string[] = []) => {
    const proxy = await startEgressProxy({
      host: '127.0.0.1',
      port: 0,
      allowedDomains,
      addressPolicy: createAddressPolicy({ internalExceptions }),
      onRefused: (attempt) => refusals.push(attempt),
    });
    proxies.push(proxy);
    return proxy;
  };

  before(async () => {
    controlplane = await startStandIn();
    neighbour = await startStandIn();
  });
  after(async () => {
    await Promise.all(proxies.map((proxy) => proxy.close()));
    for (const standIn of [controlplane, neighbour]) {
      standIn?.server.closeAllConnections();
      standIn?.server.close();
    }
  });

  it('an allowlisted bare 127.0.0.1 reaches no port of the host (HTTP and CONNECT)', async () => {
    const proxy = await proxyFor(['127.0.0.1']);
    const url = `http://127.0.0.1:${controlplane.port}/v1/tasks`;
    assert.equal(await proxiedPost(proxy, url, '{"instruction":"x"}'), 403);
    assert.equal(await proxiedConnect(proxy, `127.0.0.1:${controlplane.port}`), 403);
    assert.deepEqual(controlplane.received, []);
  });

  it('an allowlist naming the exact port, without the admin exception, is still refused', async () => {
    refusals.length = 0;
    const proxy = await proxyFor([
      `127.0.0.1:${controlplane.port}`,
      `localhost:${controlplane.port}`,
    ]);
    const url = `http://127.0.0.1:${controlplane.port}/v1/tasks`;
    assert.equal(await proxiedPost(proxy, url, '{"instruction":"x"}'), 403);
    assert.equal(await proxiedConnect(proxy, `127.0.0.1:${controlplane.port}`), 403);
    assert.equal(await proxiedConnect(proxy, `localhost:${controlplane.port}`), 403);
    assert.equal(await proxiedConnect(proxy, `[::ffff:127.0.0.1]:${controlplane.port}`), 403);
    assert.deepEqual(controlplane.received, []);
    const blocked = refusals.filter((refusal) => refusal.reason === 'blocked-address');
    assert.ok(blocked.length >= 3, JSON.stringify(refusals));
    assert.ok(
      blocked.some(
        (refusal) =>
          refusal.method === 'POST' && refusal.address === `127.0.0.1:${controlplane.port}`,
      ),
      JSON.stringify(refusals),
    );
  });

  it('an exact exception 127.0.0.1:<port> lets only that port through', async () => {
    const exception = `127.0.0.1:${controlplane.port}`;
    const proxy = await proxyFor(
      [exception, `127.0.0.1:${neighbour.port}`, `localhost:${controlplane.port}`],
      [exception],
    );
    assert.equal(await proxiedPost(proxy, `http://${exception}/ok`, 'allowed'), 200);
    assert.equal(await proxiedConnect(proxy, exception), 200);
    assert.deepEqual(controlplane.received, ['POST allowed']);
    // The neighbouring service on the same address: allowlisted, but not excepted.
    const neighbourUrl = `http://127.0.0.1:${neighbour.port}/v1/tasks`;
    assert.equal(await proxiedPost(proxy, neighbourUrl, '{"instruction":"x"}'), 403);
    assert.equal(await proxiedConnect(proxy, `127.0.0.1:${neighbour.port}`), 403);
    // The excepted port, but not named in the allowlist.
    assert.equal(await proxiedConnect(proxy, `127.0.0.1:${controlplane.port + 1}`), 403);
    assert.deepEqual(neighbour.received, []);
  });
});
