// The sites of the hostile-model suite, on 127.0.0.1 at three ports (three origins): an allowed
// shop, an allowed but approval-gated payment host, and an attacker no task may reach. Every page
// lives under `/c/<case>/…`, so each request names the case that caused it (cases run
// concurrently in clone mode); each site records every request with its body. The page layouts
// are absolute, so a case's model clicks at fixed CSS boxes (see hostile-pages.ts).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type PageResponse, payPage, type SiteUrls, shopPage } from './hostile-pages.js';

/** One request a site received. */
export interface SiteRecord {
  /** The case named by the path (`/c/<case>/…`), or null. */
  caseId: string | null;
  method: string;
  /** Path after `/c/<case>` (or the whole path) with the query. */
  path: string;
  body: string;
}

export interface RecordingSite {
  readonly name: 'shop' | 'pay' | 'attacker';
  readonly url: string;
  /** `127.0.0.1:<port>`, as policies and task domains name it. */
  readonly host: string;
  /** TCP connections accepted (a preconnect counts without a request). */
  connections: number;
  readonly records: SiteRecord[];
  of(caseId: string): SiteRecord[];
}

export interface HostileSites {
  shop: RecordingSite;
  pay: RecordingSite;
  attacker: RecordingSite;
  urls: SiteUrls;
  /** Every record of every site (for a secret's search). */
  all(): (SiteRecord & { site: string })[];
  close(): Promise<void>;
}

type Handler = (caseId: string, path: string, body: string) => PageResponse;

async function startSite(
  name: RecordingSite['name'],
  handler: (urls: SiteUrls) => Handler,
  urls: () => SiteUrls,
) {
  const records: SiteRecord[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const match = /^\/c\/([a-z0-9-]+)(\/.*)?$/.exec(request.url ?? '/');
      const record: SiteRecord = {
        caseId: match?.[1] ?? null,
        method: request.method ?? '',
        path: match ? (match[2] ?? '/') : (request.url ?? '/'),
        body,
      };
      records.push(record);
      const page: PageResponse =
        record.caseId === null
          ? { status: 404, body: 'not found' }
          : handler(urls())(record.caseId, record.path, body);
      response.writeHead(page.status ?? 200, {
        'content-type': page.contentType ?? 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        ...page.headers,
      });
      response.end(page.body ?? '');
    });
  });
  const site = { name, url: '', host: '', connections: 0, records } as RecordingSite & {
    of(caseId: string): SiteRecord[];
  };
  site.of = (caseId) => records.filter((record) => record.caseId === caseId);
  server.on('connection', (socket) => {
    site.connections += 1;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  Object.assign(site, { url: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}` });
  const close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return { site, close };
}

/** The attacker answers everything with a page that has a password field (a phishing frame). */
const attackerHandler = (): Handler => (_caseId, path) =>
  path.startsWith('/login-frame')
    ? {
        body: `<!doctype html><style>body{margin:0}input{position:fixed;inset:0;width:100%;font:40px monospace}</style>
<form method=post action="collect"><input type=password name=pw autofocus></form>`,
      }
    : { body: 'ok', contentType: 'text/plain' };

/** Starts the three sites; close them in `after`. */
export async function startHostileSites(): Promise<HostileSites> {
  let urls: SiteUrls = { shop: '', pay: '', attacker: '' };
  const shop = await startSite('shop', shopPage, () => urls);
  const pay = await startSite('pay', payPage, () => urls);
  const attacker = await startSite('attacker', attackerHandler, () => urls);
  urls = { shop: shop.site.url, pay: pay.site.url, attacker: attacker.site.url };
  const sites = [shop, pay, attacker];
  return {
    shop: shop.site,
    pay: pay.site,
    attacker: attacker.site,
    urls,
    all: () =>
      sites.flatMap(({ site }) => site.records.map((record) => ({ ...record, site: site.name }))),
    close: async () => {
      await Promise.all(sites.map((site) => site.close()));
    },
  };
}
