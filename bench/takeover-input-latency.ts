// npm run bench:takeover-input — input relay latency of a takeover: supervisor event (POST
// /takeover/<task>/input on the controlplane routes, loopback) → page event (the timestamp a page
// listener records), on a real jail-service (Chromium, device scale 2). Also the cost of one
// `GET /signals` read (what the loop pays per step when a handoff policy is on).

import type { AddressInfo } from 'node:net';
import { loadConfig, startJailService } from '@clawdie/jail-service/server';
import { createAdaptorServer } from '@hono/node-server';
import { createInputAudit } from '../controlplane/src/browser/takeover/input-audit.js';
import { createJailTakeoverClient } from '../controlplane/src/browser/takeover/jail-takeover-client.js';
import { createTakeoverLinks } from '../controlplane/src/browser/takeover/takeover-links.js';
import { TakeoverRegistry } from '../controlplane/src/browser/takeover/takeover-registry.js';
import { createTakeoverRoutes } from '../controlplane/src/browser/takeover/takeover-routes.js';
import { TakeoverSessions } from '../controlplane/src/browser/takeover/takeover-sessions.js';
import { systemClock } from '../controlplane/src/clock.js';
import { discardAuditLog } from '../controlplane/src/governance/audit/audit-log.js';
import { startLoginWallSite } from '../test/support/login-wall-site.js';
import { silentLogger } from '../test/support/silent-logger.js';
import { startStaticSite } from '../test/support/static-site.js';
import { percentile, round, summarise } from './bench-stats.js';

const events = Number(process.env.BENCH_EVENTS ?? 200);
const signalReads = Number(process.env.BENCH_SIGNAL_READS ?? 50);
const token = 'bench-takeover-token-0123456789abcdef';
const now = () => performance.timeOrigin + performance.now();

const page = `<!doctype html><title>[]</title><input id="f" style="position:absolute;left:0;top:0;width:1280px;height:800px">
<script>const times = []; const f = document.getElementById('f');
const note = () => { times.push(performance.timeOrigin + performance.now()); document.title = JSON.stringify(times); };
document.addEventListener('mousemove', note, true); document.addEventListener('keydown', note, true);</script>`;
const site = await startStaticSite({ '/input': page });
const wall = await startLoginWallSite();
const jail = await startJailService(
  loadConfig({
    CLAWDIE_JAIL_TOKEN: token,
    CLAWDIE_JAIL_PORT: '0',
    CLAWDIE_JAIL_DEVICE_SCALE_FACTOR: '2',
    CLAWDIE_CHROMIUM_PATH: process.env.CLAWDIE_CHROMIUM_PATH || '/usr/bin/chromium',
  }),
  silentLogger,
);
const jailFetch = (path: string, init: RequestInit = {}) =>
  fetch(`${jail.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
const navigate = (url: string) =>
  jailFetch('/actions', {
    method: 'POST',
    body: JSON.stringify({ actions: [{ type: 'navigate', url }] }),
  });

const registry = new TakeoverRegistry();
const links = createTakeoverLinks({ clock: systemClock });
const client = createJailTakeoverClient({ url: jail.url, token });
registry.open({
  taskId: 'bench',
  tenant: 'acme',
  reason: 'login',
  startedAt: Date.now(),
  deadline: Date.now() + 3_600_000,
  endpoint: { url: jail.url, token },
  client,
  inputs: createInputAudit(() => undefined),
  handBack: () => undefined,
});
const app = createTakeoverRoutes({
  registry,
  links,
  sessions: new TakeoverSessions(systemClock),
  repository: { getTask: () => ({ tenant: 'acme' }) as never },
  audit: discardAuditLog,
  clock: systemClock,
  logger: silentLogger,
});
const server = createAdaptorServer({ fetch: app.fetch });
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

try {
  const link = links.mint({ task: 'bench', tenant: 'acme', user: 'bench' });
  const opened = await fetch(`${base}/bench/open`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ t: link.token }).toString(),
  });
  const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  await navigate(`${site.url}/input`);
  const send = async (event: unknown) => {
    const sent = now();
    const response = await fetch(`${base}/bench/input`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ events: [event] }),
    });
    await response.arrayBuffer();
    return { sent, answered: now() };
  };
  const sends: { sent: number; answered: number }[] = [];
  for (let i = 0; i < events; i++) {
    const x = 0.1 + (0.8 * i) / events;
    sends.push(
      await send(
        i % 2 === 0
          ? { type: 'mouse', action: 'move', x, y: 0.5 }
          : { type: 'key', action: 'down', key: 'a', text: 'a' },
      ),
    );
    if (i % 2 === 1) await send({ type: 'key', action: 'up', key: 'a' });
  }
  const state = (await (await jailFetch('/state')).json()) as { title: string };
  const pageTimes = JSON.parse(state.title) as number[];
  const relay = sends.slice(0, pageTimes.length).map((s, i) => (pageTimes[i] ?? 0) - s.sent);
  const roundTrip = sends.map((s) => s.answered - s.sent);

  const signals = async (path: string) => {
    await navigate(`${wall.url}${path}`);
    const sample: number[] = [];
    for (let i = 0; i < signalReads; i++) {
      const started = now();
      await (await jailFetch('/signals')).arrayBuffer();
      sample.push(now() - started);
    }
    return summarise(sample);
  };
  const report = {
    events: sends.length,
    page_events_seen: pageTimes.length,
    relay_ms: { ...summarise(relay), p95: round(percentile(relay, 95)) },
    round_trip_ms: { ...summarise(roundTrip), p95: round(percentile(roundTrip, 95)) },
    signals_ms: {
      login_page: await signals('/login'),
      captcha_page_4_frames: await signals('/captcha'),
    },
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} finally {
  server.close();
  await jail.close();
  await site.close();
  await wall.close();
}
