// The browser lifecycle through the public API (issue 24, 4c): create a clone (hostd's
// `POST /clones` over HTTP, HostdClient) → connect (its jail-service answers `GET /health`) →
// open a local page (`POST /actions` navigate, until `load`) → release (`DELETE /clones/:name`),
// p50/p95, from the warm pool and cold; beside a bare `puppeteer.launch` + the same page + close,
// interleaved round by round so that all three see the same load. Real Linux driver (root).
// Usage: npm run bench:lifecycle [-- --rounds=10 --no-build]
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import { startDemoSite } from '../controlplane/src/platform/demo/demo-site-server.js';
import { HostdClient } from '../hostd/src/api/client.js';
import { createApp } from '../hostd/src/app.js';
import type { CloneManager } from '../hostd/src/clones/clone-manager.js';
import { acquireHostLock } from '../test/hostd/support/host-lock.js';
import { createTestDriver, linuxDriverMissing } from '../test/hostd/support/linux-harness.js';
import { bareChromium } from './bare-chromium.js';
import { percentile } from './bench-stats.js';
import { benchManager, buildJailService } from './clone-bench-setup.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '10' },
    'no-build': { type: 'boolean', default: false },
  },
});
const missing = linuxDriverMissing();
if (missing) throw new Error(`bench needs the real Linux driver: ${missing}`);
buildJailService(values['no-build']);
await acquireHostLock();
await createTestDriver().reconcile(() => false);
const site = await startDemoSite();
const siteHost = new URL(site.url).host;
const page = `${site.url}/`;

/** One hostd over loopback HTTP per manager, as the controlplane reaches it. */
async function hostd(manager: CloneManager) {
  const token = 'bench-lifecycle-token-0123456789';
  const app = createApp({ token, manager, driver: createTestDriver() });
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const client = new HostdClient({ baseUrl: `http://127.0.0.1:${port}`, token });
  return { manager, client, close: () => new Promise((resolve) => server.close(resolve)) };
}
// Disjoint index ranges: the pool refills while a cold clone is made.
const warm = await hostd(
  benchManager({
    driver: createTestDriver(),
    poolSize: 1,
    siteHost,
    indexRange: { min: 1, max: 9 },
  }),
);
const cold = await hostd(
  benchManager({
    driver: createTestDriver(),
    poolSize: 0,
    siteHost,
    indexRange: { min: 10, max: 19 },
  }),
);
warm.manager.fillPool();

type Parts = Record<'create' | 'connect' | 'open' | 'release' | 'total', number>;
async function lifecycle(
  client: HostdClient,
  taskId: string,
): Promise<Parts & { pooled: boolean }> {
  const t0 = performance.now();
  const clone = await client.createClone({ taskId, allowedDomains: [siteHost] });
  const t1 = performance.now();
  const auth = { authorization: `Bearer ${clone.service.token}` };
  const health = await fetch(`${clone.service.url}/health`, { headers: auth });
  if (!health.ok) throw new Error(`connect: HTTP ${health.status}`);
  await health.arrayBuffer();
  const t2 = performance.now();
  const opened = await fetch(`${clone.service.url}/actions`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ actions: [{ type: 'navigate', url: page }] }),
  });
  const body = (await opened.json()) as { results?: { status: string }[] };
  if (!opened.ok || body.results?.[0]?.status !== 'ok') {
    throw new Error(`open: HTTP ${opened.status} ${JSON.stringify(body)}`);
  }
  const t3 = performance.now();
  await client.destroyClone({ name: clone.name, leaseId: clone.leaseId });
  const t4 = performance.now();
  return {
    create: t1 - t0,
    connect: t2 - t1,
    open: t3 - t2,
    release: t4 - t3,
    total: t4 - t0,
    pooled: clone.fromPool,
  };
}

const runs: Record<'warm' | 'cold', Parts[]> = { warm: [], cold: [] };
const bare: number[] = [];
const loads: number[] = [];
for (let round = 0; round < Number(values.rounds); round += 1) {
  loads.push(loadavg()[0] ?? 0);
  // Each measure starts with the pool full: no refill of an earlier round runs meanwhile.
  await warm.manager.poolReady(60_000);
  const pooled = await lifecycle(warm.client, `warm-${round}`);
  if (!pooled.pooled) throw new Error('the warm clone did not come from the pool');
  runs.warm.push(pooled);
  await warm.manager.poolReady(60_000);
  runs.cold.push(await lifecycle(cold.client, `cold-${round}`));
  await warm.manager.poolReady(60_000);
  bare.push(await bareChromium(page));
}
await warm.manager.close();
await cold.manager.close();
await Promise.all([warm.close(), cold.close(), site.close()]);

const ms = (value: number) => `${value.toFixed(0)} ms`;
const p = (list: number[], q: number) => ms(percentile(list, q));
const load = loads.map((value) => value.toFixed(1));
console.log(`rounds: ${values.rounds}; 1-min load average per round: ${load.join(' ')}`);
const bareP50 = percentile(bare, 50);
console.log(`bare puppeteer.launch + page + close: p50 ${ms(bareP50)}, p95 ${p(bare, 95)}`);
for (const kind of ['warm', 'cold'] as const) {
  const list = runs[kind];
  const parts = (['create', 'connect', 'open', 'release'] as const)
    .map(
      (part) =>
        `${part} ${p(
          list.map((run) => run[part]),
          50,
        )}`,
    )
    .join(', ');
  const totals = list.map((run) => run.total);
  const p50 = percentile(totals, 50);
  const goal = kind === 'warm' ? ` (goal ≤ 150 ms: ${p50 <= 150 ? 'met' : 'MISSED'})` : '';
  console.log(
    `${kind}: create + connect + open + release p50 ${ms(p50)}${goal}, p95 ${p(totals, 95)}; ${(p50 / bareP50).toFixed(2)}× bare; medians: ${parts}`,
  );
}
console.log('anchors (p50): fastest self-hosted 224 ms; hosted leaders 365–578 ms');
process.exit(0);
