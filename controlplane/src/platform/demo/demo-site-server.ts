import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { demoCredentials, findDemoProduct, searchDemoProducts } from './demo-catalogue.js';
import { createDemoPages } from './demo-pages.js';
import type { DemoTemplates } from './demo-templates.js';
import { loadDemoTemplates } from './demo-templates.js';

export type { DemoProduct, DemoTask } from './demo-catalogue.js';
export { demoCredentials, demoProducts, demoTask } from './demo-catalogue.js';

/** Name of the session cookie the demo site sets after a successful sign-in. */
export const demoSessionCookie = 'demo_session';

const maxSessions = 1000;
const maxQueryLength = 200;

/** Options of {@link createDemoSiteApp}; every field has a production default. */
export interface DemoSiteAppOptions {
  /** Session token generator (default `crypto.randomUUID`). */
  generateSessionId?: () => string;
  /** Pre-loaded templates (default: read from `controlplane/demo-site/`). */
  templates?: DemoTemplates;
}

/**
 * The bundled demo shop as a Hono app (never listens). Flow: `/` sign-in form (`demo` /
 * `clawdie`) → `POST /login` sets a session cookie and redirects (303) to `/search` → a GET form
 * to `/results?q=…` → `/item/:id` showing the product's "Order reference". Pages behind the
 * sign-in redirect (303) to `/` without a session; wrong credentials re-render the form with an
 * error and status 401. No external resources: inline CSS, a CSP of `default-src 'none'`.
 */
export function createDemoSiteApp(options: DemoSiteAppOptions = {}): Hono {
  const generateSessionId = options.generateSessionId ?? randomUUID;
  const pages = createDemoPages(options.templates ?? loadDemoTemplates());
  const sessions = new Map<string, string>();
  const app = new Hono();

  const sessionUser = (c: Context): string | null => {
    const token = getCookie(c, demoSessionCookie);
    return token === undefined ? null : (sessions.get(token) ?? null);
  };

  app.use(async function demoHeaders(c, next) {
    await next();
    c.header('Cache-Control', 'no-store');
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'",
    );
  });

  app.get('/', (c) =>
    sessionUser(c) === null ? c.html(pages.login()) : c.redirect('/search', 303),
  );
  app.get('/login', (c) => c.redirect('/', 303));

  app.post('/login', async (c) => {
    const body = await c.req.parseBody();
    const username = typeof body.username === 'string' ? body.username.trim() : '';
    const password = typeof body.password === 'string' ? body.password : '';
    if (username === '' || password === '') {
      return c.html(pages.login({ error: 'Enter your username and password.' }), 401);
    }
    if (username !== demoCredentials.username || password !== demoCredentials.password) {
      return c.html(pages.login({ error: 'Wrong username or password. Please try again.' }), 401);
    }
    if (sessions.size >= maxSessions) sessions.clear();
    const token = generateSessionId();
    sessions.set(token, username);
    setCookie(c, demoSessionCookie, token, { path: '/', httpOnly: true, sameSite: 'Lax' });
    return c.redirect('/search', 303);
  });

  app.post('/logout', (c) => {
    const token = getCookie(c, demoSessionCookie);
    if (token !== undefined) sessions.delete(token);
    deleteCookie(c, demoSessionCookie, { path: '/' });
    return c.redirect('/', 303);
  });

  app.get('/search', (c) => {
    const username = sessionUser(c);
    return username === null ? c.redirect('/', 303) : c.html(pages.search(username));
  });

  app.get('/results', (c) => {
    const username = sessionUser(c);
    if (username === null) return c.redirect('/', 303);
    const query = (c.req.query('q') ?? '').trim().slice(0, maxQueryLength);
    return c.html(pages.results(username, query, searchDemoProducts(query)));
  });

  app.get('/item/:id', (c) => {
    const username = sessionUser(c);
    if (username === null) return c.redirect('/', 303);
    const product = findDemoProduct(c.req.param('id'));
    if (product === undefined) {
      return c.html(pages.notFound(username, 'There is no product with this address.'), 404);
    }
    return c.html(pages.item(username, product));
  });

  app.notFound((c) => c.html(pages.notFound(sessionUser(c), 'This page does not exist.'), 404));
  return app;
}

/** Options of {@link startDemoSite}. */
export interface StartDemoSiteOptions extends DemoSiteAppOptions {
  /** Interface to bind (default `127.0.0.1`). */
  host?: string;
  /** TCP port (default 0: an ephemeral port). */
  port?: number;
}

/** A listening demo site. */
export interface RunningDemoSite {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Stops listening and drops open connections; idempotent. */
  close(): Promise<void>;
}

/**
 * Serves {@link createDemoSiteApp} over HTTP. Rejects when the port cannot be bound.
 *
 * @example
 * const site = await startDemoSite();
 * // … point a browser at site.url …
 * await site.close();
 */
export async function startDemoSite(options: StartDemoSiteOptions = {}): Promise<RunningDemoSite> {
  const host = options.host ?? '127.0.0.1';
  const app = createDemoSiteApp(options);
  // createAdaptorServer defaults to node:http's createServer, so the result is an http.Server.
  const server = createAdaptorServer({ fetch: app.fetch, hostname: host }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const url = `http://${urlHost.includes(':') ? `[${urlHost}]` : urlHost}:${port}`;
  let closed: Promise<void> | undefined;
  return {
    url,
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
