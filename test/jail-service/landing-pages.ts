// Fixture pages for landing, secrets, masks and popups (issue 20). Three sites: `a` and `b` on
// 127.0.0.1 (two ports: same site, different origins, one renderer process) and `c` on
// `localhost` (another site: an out-of-process iframe under site isolation).
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { type Action, type LandingResponse, landingResponseSchema } from '@clawdie/kit/jail-api';
import { type StaticRoute, type StaticSite, startStaticSite } from '../support/static-site.js';
import { type JailClient, startTestJail, type TestJail } from './jail-harness.js';

export interface Sites {
  a: string;
  b: string;
  c: string;
}

const box = (left: number, top: number, width: number, height: number) =>
  `position:absolute;left:${left}px;top:${top}px;width:${width}px;height:${height}px;margin:0`;
const frame = (src: string, left: number, top: number, width: number, height: number) =>
  `<iframe src="${src}" style="${box(left, top, width, height)};border:0"></iframe>`;
const page = (body: string, head = '') =>
  `<!doctype html><html><head>${head}</head><body style="margin:0">${body}</body></html>`;

/** Reports every key and input event of its inputs to the top page, which logs them in its title. */
const REPORT = `<script>
  for (const el of document.querySelectorAll('input')) {
    for (const type of ['keydown', 'input']) el.addEventListener(type, (event) =>
      top.postMessage({ id: el.id, type, value: el.value, origin: location.origin }, '*'));
  }
</script>`;
const LOG = `<script>
  const log = [];
  addEventListener('message', (event) => { log.push(event.data); document.title = JSON.stringify(log); });
  document.title = '[]';
</script>`;

const LOGIN =
  `<input id=user autocomplete=username style="${box(10, 10, 300, 40)};font-size:28px">` +
  `<input id=pass type=password autocomplete=current-password style="${box(10, 60, 300, 40)}">` +
  `<input id=plain type=text style="${box(50, 200, 400, 60)};font-size:40px;border:0;background:#fff;color:#000">${REPORT}${LOG}`;

/** Routes served by every site (each page is the same on all three). */
export function landingRoutes(sites: Sites): Record<string, string | StaticRoute> {
  const nest = (depth: number): string => {
    // Level by depth: same origin as the parent, site b (same process), site c (another process).
    const next = depth - 1;
    const host = [sites.a, sites.b, sites.c][next % 3];
    const child =
      depth === 0
        ? `<button style="${box(0, 0, 400, 400)}">deep</button>`
        : frame(`${host}/nest/${next}`, 2, 2, 700, 500);
    return page(child);
  };
  const routes: Record<string, string | StaticRoute> = {
    '/button': page(
      `<form action="/pay" method="post"><button style="${box(10, 10, 120, 40)}">Pay</button></form>${REPORT}`,
    ),
    '/frames': page(
      frame(`${sites.a}/same`, 0, 0, 400, 300) +
        frame(`${sites.b}/button`, 420, 0, 300, 100) +
        frame(`${sites.c}/button`, 420, 150, 300, 100),
    ),
    '/same': page(frame(`${sites.b}/button`, 50, 50, 300, 100)),
    '/shop': page(
      `<form action="${sites.b}/pay" method="post"><input name=q style="${box(10, 70, 200, 30)}"><button style="${box(10, 10, 120, 40)}">Buy</button></form>`,
    ),
    '/links': page(
      `<a href="/popup" target="_blank" style="${box(10, 10, 200, 40)};display:block">open</a>` +
        `<button onclick="window.open('/popup')" style="${box(10, 80, 200, 40)}">window.open</button>`,
      '<title>opener</title>',
    ),
    // The page's own Back button: history.back() from a click, not the model's navigate_back.
    '/back': page(`<button onclick="history.back()" style="${box(10, 10, 120, 40)}">Back</button>`),
    '/popup': page(
      `<button onclick="window.close()" style="${box(10, 10, 200, 40)}">close me</button>`,
      '<title>popup</title>',
    ),
    // A link whose destination changes at the first key press: after the landing decided on it.
    '/swap': page(
      `<a id=l href="/safe" style="${box(10, 10, 200, 40)};display:block">go</a><script>
        addEventListener('keydown', () => { document.getElementById('l').href = '/evil'; });
        let clicks = 0; document.getElementById('l').addEventListener('click', (event) => {
          event.preventDefault(); document.title = String(++clicks); });
        document.title = '0';
      </script>`,
    ),
    '/login': page(LOGIN),
    // The login page saying its fields' values once loaded: a back/forward restore fires no event.
    '/login-values': page(
      `${LOGIN}<script>addEventListener('load', () => setTimeout(() => { document.title =
        JSON.stringify([...document.querySelectorAll('input')].map((el) => ({ id: el.id, value: el.value }))); }));</script>`,
    ),
    // A login page whose renderer is busy for 300 ms right after its load, so it draws late.
    '/busy-login': page(
      `${LOGIN}<script>addEventListener('load', () => setTimeout(() => {
        const end = performance.now() + 300; while (performance.now() < end);
      }));</script>`,
    ),
    '/foreign': page(
      `<input id=pass type=password style="${box(10, 10, 300, 40)}">${frame(`${sites.c}/login`, 0, 120, 600, 300)}${REPORT}${LOG}`,
    ),
    '/foreign-busy': page(`${frame(`${sites.c}/busy-login`, 0, 120, 600, 300)}${LOG}`),
    '/scrolled': page(
      `<div style="height:300px"></div>${frame(`${sites.c}/login`, 0, 300, 600, 300)}<div style="height:2000px"></div>${LOG}`,
    ),
    '/storage': page(
      `<script>document.title = JSON.stringify({ cookie: document.cookie, stored: localStorage.getItem('k') });
        document.cookie = 'c=1; max-age=3600'; localStorage.setItem('k', 'v');</script>`,
    ),
  };
  for (let depth = 0; depth <= 20; depth++) routes[`/nest/${depth}`] = nest(depth);
  return { ...routes, ...bypassRoutes(sites) };
}

/**
 * The review's gate bypasses: a payment page in an <object> or <embed> (same-site and another
 * site), a field whose form's default button posts elsewhere (in the form, or attached by
 * `form=`), and labels that click a hidden Pay button (`for=`, wrapping).
 */
function bypassRoutes(sites: Sites): Record<string, string> {
  const hidden = 'style="position:absolute;left:-9999px"';
  const search = (id: string, top: number, button: string) =>
    `<form id=${id} action="/search"><input name=q style="${box(10, top, 200, 30)}">${button}</form>`;
  const charge = `formaction="${sites.b}/charge" formmethod=post`;
  return {
    '/object': page(
      `<object type="text/html" data="${sites.b}/button" style="${box(0, 0, 400, 100)}"></object>` +
        `<object type="text/html" data="${sites.c}/button" style="${box(0, 150, 400, 100)}"></object>`,
    ),
    '/embed': page(
      `<embed type="text/html" src="${sites.b}/button" style="${box(0, 0, 400, 100)}">` +
        `<embed type="text/html" src="${sites.c}/button" style="${box(0, 150, 400, 100)}">`,
    ),
    '/default-button': page(
      search('f1', 10, `<button ${charge} style="${box(300, 10, 100, 30)}">Search</button>`) +
        search('f2', 60, '') +
        `<button form=f2 ${charge} style="${box(300, 60, 100, 30)}">Go</button>` +
        search('f3', 110, `<button type=button style="${box(300, 110, 100, 30)}">Help</button>`),
    ),
    '/label': page(
      `<label for=pay style="${box(10, 10, 200, 40)}">Continue</label>` +
        `<form method=post action="${sites.b}/charge"><button id=pay ${hidden}>Pay</button></form>` +
        `<form method=post action="${sites.b}/wrapped"><label style="${box(10, 60, 200, 40)}">` +
        `<span>Continue</span><input type=submit ${hidden}></label></form>` +
        `<label for=name style="${box(10, 110, 200, 40)}">Name</label>` +
        `<form method=post action="${sites.b}/charge"><input id=name ${hidden}></form>`,
    ),
  };
}

/** Three sites serving the same routes: a, b on 127.0.0.1 (two ports), c on localhost. */
export async function startSites(): Promise<{ sites: Sites; close(): Promise<void> }> {
  const servers: StaticSite[] = await Promise.all([0, 1, 2].map(() => startStaticSite({})));
  const [a, b, c] = servers as [StaticSite, StaticSite, StaticSite];
  const sites = { a: a.url, b: b.url, c: c.url.replace('127.0.0.1', 'localhost') };
  for (const server of servers)
    for (const [path, route] of Object.entries(landingRoutes(sites))) server.set(path, route);
  return { sites, close: async () => void (await Promise.all(servers.map((s) => s.close()))) };
}

export async function landing(client: JailClient, action: Action): Promise<LandingResponse> {
  const response = await client.fetch('/landing', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action }),
  });
  const body: unknown = await response.json();
  assert.equal(response.status, 200, JSON.stringify(body));
  return landingResponseSchema.parse(body);
}

/** What `withLandingJail` starts for a suite. */
export interface LandingJail {
  sites: Sites;
  client: JailClient;
  jail: TestJail;
}

/**
 * Registers the suite's `before` and `after`: the three sites and a jail-service on real Chromium
 * (navigation bound 5 s, plus `env`), handed to `started` once both are up, and closed after.
 */
export function withLandingJail(
  env: Record<string, string>,
  started: (fixture: LandingJail) => void,
): void {
  let closeSites: (() => Promise<void>) | undefined;
  let jail: TestJail | undefined;
  before(async () => {
    const up = await startSites();
    closeSites = up.close;
    jail = await startTestJail({ CLAWDIE_JAIL_NAVIGATION_TIMEOUT_MS: '5000', ...env });
    started({ sites: up.sites, client: jail.client, jail });
  });
  after(async () => {
    await jail?.close();
    await closeSites?.();
  });
}
