// A JailDriver over the in-memory FakeDriver whose clones answer on loopback like a jail-service:
// /health and /screenshot behind the bearer token, and /actions `navigate` fetched the way the
// clone's Chromium would — through the egress proxy given at start (or, rigged, around it).
// Rigging: `leftover` makes destroy leave a resource behind and keep the clone listed.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  CloneInfo,
  DestroyResult,
  JailDriver,
  StartOptions,
} from '../../../hostd/src/drivers/jail-driver.js';
import { FakeDriver } from '../../hostd/support/fake-jail-driver.js';

export interface StubRigging {
  /** Destroy reports this resource as left and the clone stays listed. */
  leftover?: string;
  /** The "browser" ignores the egress proxy and connects directly. */
  bypassProxy?: boolean;
}

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]);

export class StubCloneDriver extends FakeDriver implements JailDriver {
  readonly #rigging: StubRigging;
  readonly #servers = new Map<string, { server: Server; url: string; token: string }>();
  readonly #stuck = new Set<string>();

  constructor(rigging: StubRigging = {}) {
    super();
    this.#rigging = rigging;
  }

  override async start(name: string, options: StartOptions): Promise<CloneInfo> {
    await super.start(name, options);
    const token = `stub-token-${name}`;
    const server = createServer((req, res) => {
      if (req.headers.authorization !== `Bearer ${token}`) return void res.writeHead(401).end();
      if (req.url === '/health') return void res.end('{"status":"ok"}');
      if (req.url === '/screenshot') {
        return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
      }
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        const url = JSON.parse(body).actions[0].url as string;
        this.#browse(url, options.egressProxyUrl);
        res.end('{"results":[]}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    this.#servers.set(name, { server, url, token });
    return this.#withService(await super.inspect(name));
  }

  override async destroy(name: string): Promise<DestroyResult> {
    const stub = this.#servers.get(name);
    this.#servers.delete(name);
    if (stub) await new Promise((resolve) => stub.server.close(resolve));
    if (this.#rigging.leftover) {
      this.#stuck.add(name);
      return { name, leftovers: [this.#rigging.leftover] };
    }
    return super.destroy(name);
  }

  override async inspect(name: string): Promise<CloneInfo | null> {
    const info = await super.inspect(name);
    return info ? this.#withService(info) : null;
  }

  override async list(): Promise<CloneInfo[]> {
    return (await super.list()).map((info) => this.#withService(info));
  }

  #withService(info: CloneInfo | null): CloneInfo {
    if (!info) throw new Error('stub clone vanished');
    const stub = this.#servers.get(info.name);
    const resources = this.#stuck.has(info.name) ? [this.#rigging.leftover ?? ''] : info.resources;
    return { ...info, resources, service: stub ? { url: stub.url, token: stub.token } : null };
  }

  /** What Chromium does with `--proxy-server`: an absolute-URL GET to the proxy. */
  #browse(url: string, proxyUrl: string | null): void {
    const target = new URL(url);
    const proxy = proxyUrl && !this.#rigging.bypassProxy ? new URL(proxyUrl) : null;
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
}
