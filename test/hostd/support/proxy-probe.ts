// Asks a clone's egress proxy (on the host side) to CONNECT somewhere, as the clone's browser
// would: for tests that need a real refusal (or a real pass) without a browser.
import { request } from 'node:http';

/** The proxy's answer to `CONNECT target` (e.g. 403 for a host outside the allowlist). */
export function connectThrough(proxyUrl: string, target: string): Promise<number> {
  const proxy = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const connect = request({
      host: proxy.hostname,
      port: Number(proxy.port),
      method: 'CONNECT',
      path: target,
    });
    connect.on('connect', (response, socket) => {
      socket.destroy();
      resolve(response.statusCode ?? 0);
    });
    connect.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    connect.on('error', reject);
    connect.end();
  });
}
