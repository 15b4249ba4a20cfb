// Saved-session injection cost: a fresh jail-service (fresh Chromium, as in a new clone) from
// launch to its first screenshot, without and with POST /session/import of a real bundle (the
// login-wall site's session cookie, localStorage note and IndexedDB note) in between: cookies
// only, cookies + localStorage, and all three. Prints p50/p90 per mode,
// the added ms and the with/without ratio. Usage: npm run bench:session [-- runs]
import { performance } from 'node:perf_hooks';
import { loadConfig, startJailService } from '@clawdie/jail-service/server';
import { indexedDbTotals, type SessionBundle, sessionBundleSchema } from '@clawdie/kit/jail-api';
import { createClawdieBrowserOperator } from '../controlplane/src/browser/operator/clawdie-browser-operator.js';
import { createJailSessionClient } from '../controlplane/src/browser/operator/jail-session-client.js';
import { createJailClient } from '../test/jail-service/jail-harness.js';
import { loginThroughJail } from '../test/support/login-wall-login.js';
import { startLoginWallSite } from '../test/support/login-wall-site.js';
import { silentLogger } from '../test/support/silent-logger.js';
import { round, summarise } from './bench-stats.js';

const TOKEN = 'bench-session-token-0123456789abcdef';
const runs = Number(process.argv[2] ?? 8);

const start = () =>
  startJailService(
    loadConfig({
      CLAWDIE_JAIL_TOKEN: TOKEN,
      CLAWDIE_JAIL_PORT: '0',
      CLAWDIE_CHROMIUM_PATH: process.env.CLAWDIE_CHROMIUM_PATH || '/usr/bin/chromium',
    }),
    silentLogger,
  );

/** Launch → (import) → first screenshot, in ms: the total and the part after the service is up. */
async function once(bundle: SessionBundle | null) {
  const t0 = performance.now();
  const service = await start();
  const ready = performance.now();
  try {
    if (bundle)
      await createJailSessionClient({ url: service.url, token: TOKEN }).importSession(bundle);
    await createClawdieBrowserOperator({ url: service.url, token: TOKEN }).screenshot();
    const end = performance.now();
    return { total: end - t0, afterReady: end - ready };
  } finally {
    await service.close();
  }
}

async function main() {
  const site = await startLoginWallSite();
  const source = await start();
  const client = createJailClient(source.url, TOKEN);
  await loginThroughJail(client, site);
  while ((await client.state()).title !== 'Account · idb stored')
    await new Promise((resolve) => setTimeout(resolve, 50));
  const bundle = sessionBundleSchema.parse(
    await createJailSessionClient({ url: source.url, token: TOKEN }).exportSession([site.url]),
  );
  await source.close();
  const noIndexedDb = { databases: [], skipped: [] };
  const storage = {
    ...bundle,
    origins: bundle.origins.map((o) => ({ ...o, indexedDB: noIndexedDb })),
  };
  const cookies = {
    ...storage,
    origins: storage.origins.map((o) => ({ ...o, localStorage: [] })),
  };
  const modes = { without: null, cookies, storage, full: bundle } as const;
  const samples = Object.fromEntries(
    Object.keys(modes).map((mode) => [mode, { total: [] as number[], afterReady: [] as number[] }]),
  ) as Record<keyof typeof modes, { total: number[]; afterReady: number[] }>;
  await once(null); // warm-up (disk cache)
  for (let i = 0; i < runs; i += 1) {
    for (const mode of Object.keys(modes) as (keyof typeof modes)[]) {
      const sample = await once(modes[mode]);
      samples[mode].total.push(sample.total);
      samples[mode].afterReady.push(sample.afterReady);
    }
  }
  await site.close();
  const baseReady = summarise(samples.without.afterReady).p50;
  console.log(
    `session injection: fresh jail-service (fresh Chromium) → first screenshot, ${runs} runs each`,
  );
  console.log(
    `bundle: ${bundle.cookies.length} cookie(s), ${bundle.origins.length} origin(s) with localStorage, ${indexedDbTotals(bundle.origins.map((o) => o.indexedDB)).records} IndexedDB record(s); modes: cookies, storage = cookies + localStorage, full = + IndexedDB; launch time varies with host load, so the figure is ready → first screenshot`,
  );
  for (const mode of Object.keys(modes) as (keyof typeof modes)[]) {
    const total = summarise(samples[mode].total);
    const ready = summarise(samples[mode].afterReady);
    console.log(
      `${mode.padEnd(8)} ready→first screenshot p50 ${ready.p50} ms (p90 ${ready.p90}) | added ${round(ready.p50 - baseReady)} ms | ratio ${round(ready.p50 / baseReady, 3)} | launch→first screenshot p50 ${total.p50} ms`,
    );
  }
}

await main();
