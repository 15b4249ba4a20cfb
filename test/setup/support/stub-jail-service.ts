// A loopback stand-in for a clone's jail-service: /health and /screenshot behind the bearer token,
// and /actions `navigate` fetched the way the clone's Chromium would — an absolute-URL GET through
// the egress proxy it was started with (or, rigged, straight to the target around it).
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubJailService {
  url: string;
  close(): Promise<void>;
}

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]);

export async function startStubJailService(options: {
  token: string;
  proxyUrl: string | null;
  bypassProxy?: boolean;
}): Promise<StubJailService> {
  const server = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${options.token}`) {
      return void res.writeHead(401).end();
    }
    if (req.url === '/health') return void res.end('{"status":"ok","stub":true}');
    if (req.url === '/screenshot') {
      return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
    }
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const url = JSON.parse(body).actions[0].url as string;
      browse(url, options.bypassProxy ? null : options.proxyUrl);
      res.end('{"results":[]}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What Chromium does with `--proxy-server`: an absolute-URL GET to the proxy. */
function browse(url: string, proxyUrl: string | null): void {
  const target = new URL(url);
  const proxy = proxyUrl ? new URL(proxyUrl) : null;
  const req = request({
    host: proxy ? proxy.hostname : target.hostname,
    port: proxy ? Number(proxy.port) : Number(target.port || 80),
    path: proxy ? target.href : target.pathname,
    headers: { host: target.host },
    timeout: 2000,
  });
  req.on('response', (response) => response.resume());
  req.on('timeout', () => req.destroy());
  req.on('error', () => {});
  req.end();
}
