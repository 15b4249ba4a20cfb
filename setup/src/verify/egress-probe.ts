// Asks a clone's egress proxy, as the clone's browser would, to reach a target; and a loopback
// listener that counts whether anything got through to it.
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The proxy's status for `CONNECT target` (403 = refused), or the error. */
export function connectThrough(proxyUrl: string, target: string, timeoutMs = 10_000) {
  const proxy = new URL(proxyUrl);
  return new Promise<number>((resolve, reject) => {
    const connect = request({
      host: proxy.hostname,
      port: Number(proxy.port),
      method: 'CONNECT',
      path: target,
      timeout: timeoutMs,
    });
    connect.on('connect', (response, socket) => {
      socket.destroy();
      resolve(response.statusCode ?? 0);
    });
    connect.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    connect.on('timeout', () => connect.destroy(new Error(`CONNECT ${target}: timed out`)));
    connect.on('error', reject);
    connect.end();
  });
}

/** The proxy's status for a plain-HTTP `GET url` sent as an absolute-URL proxy request. */
export function getThrough(proxyUrl: string, url: string, timeoutMs = 10_000) {
  const proxy = new URL(proxyUrl);
  const target = new URL(url);
  return new Promise<number>((resolve, reject) => {
    const get = request({
      host: proxy.hostname,
      port: Number(proxy.port),
      method: 'GET',
      path: target.href,
      headers: { host: target.host },
      timeout: timeoutMs,
    });
    get.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    get.on('timeout', () => get.destroy(new Error(`GET ${url}: timed out`)));
    get.on('error', reject);
    get.end();
  });
}

export interface Canary {
  port: number;
  /** Connections that reached the listener. */
  hits(): number;
  close(): Promise<void>;
}

/** An HTTP listener on `host` (port 0) that a refused egress must never reach. */
export async function startCanary(host = '127.0.0.1'): Promise<Canary> {
  let hits = 0;
  const server = createServer((_request, response) => response.end('canary'));
  server.on('connection', () => {
    hits += 1;
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
