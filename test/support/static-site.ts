import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One fixture response. A plain string is an HTML page with status 200. */
export interface StaticRoute {
  body?: string;
  status?: number;
  contentType?: string;
  /** Answer only after this many ms (a slow page); the test server's own, not the code's. */
  delayMs?: number;
  headers?: Record<string, string>;
}

export interface StaticSite {
  /** `http://127.0.0.1:<port>` without a trailing slash. */
  url: string;
  /** Paths (with query) requested so far, in order. */
  requests: string[];
  /** Adds or replaces a route at runtime. */
  set(path: string, route: string | StaticRoute): void;
  close(): Promise<void>;
}

/**
 * A tiny HTTP server on 127.0.0.1:0 serving fixture pages from memory; routes match on the path
 * without the query string, unknown paths get a 404 page.
 */
export async function startStaticSite(
  routes: Record<string, string | StaticRoute> = {},
): Promise<StaticSite> {
  const table = new Map(Object.entries(routes));
  const requests: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const target = request.url ?? '/';
    requests.push(target);
    const path = target.split('?')[0] ?? '/';
    const found = table.get(path);
    const route: StaticRoute =
      found === undefined
        ? { status: 404, body: '<title>not found</title>not found' }
        : typeof found === 'string'
          ? { body: found }
          : found;
    const send = () => {
      response.writeHead(route.status ?? 200, {
        'content-type': route.contentType ?? 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        ...route.headers,
      });
      response.end(route.body ?? '');
    };
    if (!route.delayMs) {
      send();
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      send();
    }, route.delayMs);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    set: (path, route) => table.set(path, route),
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Wraps a body in a minimal UTF-8 HTML document with no default margins. */
export function htmlPage(title: string, body: string, head = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>
<style>html,body{margin:0;padding:0}</style>${head}</head><body>${body}</body></html>`;
}

/** A loopback URL nobody listens on (a port that was free a moment ago): connection refused. */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/`;
}
