// The model's `wait()` on a page that never stops moving (issue 24, 2): a clicked text field (its
// caret blinks), a clock ticking every second, and the page's real change — a panel — 2.5 s after
// load. Real Chromium through a local jail-service. Measured in the same run: `now` (restless
// regions left out, and 500 ms of quiet enough while the page reports its network idle), `pixels`
// (restless regions left out, 1 s of quiet always: no page signals), `before` (every changed cell
// counts, 1 s of quiet) — how long the wait took, and how long after the panel it returned; and the
// floor: the same page with nothing moving (no clock, field not clicked), as `now`. The limit is
// the model's usual 5 s.
// Run: npm run bench:wait-settle [-- --runs=5]
import { performance } from 'node:perf_hooks';
import { createClawdieBrowserOperator } from '../controlplane/src/browser/operator/clawdie-browser-operator.js';
import { startLocalJailService } from '../controlplane/src/browser/provider/local-jail-service.js';
import { withSmartWait } from '../controlplane/src/browser/wait/smart-wait-operator.js';
import { WaitEngine } from '../controlplane/src/browser/wait/wait-engine.js';
import { systemClock } from '../controlplane/src/clock.js';
import { BUSY_FIELD, busyPage, showsPanel } from '../test/support/busy-page.js';
import { silentLogger } from '../test/support/silent-logger.js';
import { startStaticSite } from '../test/support/static-site.js';
import { testImages } from '../test/support/test-images.js';
import { testLauncher } from '../test/support/test-launcher.js';
import { percentile, round } from './bench-stats.js';

const PANEL_AT = 2500;
const LIMIT = 5000;
const runs = Number(process.argv.find((arg) => arg.startsWith('--runs='))?.slice(7) ?? 5);

const site = await startStaticSite({
  '/busy': busyPage(PANEL_AT),
  '/still': busyPage(PANEL_AT, { still: true }),
});
const jail = await startLocalJailService({
  egressProxyUrl: null,
  launcher: testLauncher,
  env: { ...process.env, CLAWDIE_JAIL_VIEWPORT: '1280x800' },
  logger: silentLogger,
});
const browser = createClawdieBrowserOperator({ url: jail.url, token: jail.token });

/** One wait on a fresh load: its duration, and how long after the panel it returned. */
async function once(ignoreRestless: boolean, quickSettleMs: number, still = false) {
  const engine = new WaitEngine({
    images: testImages,
    clock: systemClock,
    settings: { settle: { ignoreRestless } },
  });
  const operator = withSmartWait(browser, engine, { settleMs: 1000, quickSettleMs });
  await operator.execute([{ type: 'navigate', url: `${site.url}${still ? '/still' : '/busy'}` }]);
  const loaded = performance.now();
  if (!still) await operator.execute([{ type: 'click', ...BUSY_FIELD }]);
  const started = performance.now();
  await operator.execute([{ type: 'wait', ms: LIMIT }]);
  const ended = performance.now();
  const shown = await showsPanel((await operator.screenshot()).jpeg);
  engine.close();
  return { waited: ended - started, afterPanel: ended - loaded - PANEL_AT, shown };
}

type Run = Awaited<ReturnType<typeof once>>;
const results: Record<'now' | 'pixels' | 'before' | 'floor', Run[]> = {
  now: [],
  pixels: [],
  before: [],
  floor: [],
};
for (let i = 0; i < runs; i += 1) {
  results.before.push(await once(false, 1000));
  results.pixels.push(await once(true, 1000));
  results.now.push(await once(true, 500));
  results.floor.push(await once(true, 500, true));
}
await jail.stop();
await site.close();

const p50 = (list: Run[], key: 'waited' | 'afterPanel') =>
  round(
    percentile(
      list.map((run) => run[key]),
      50,
    ),
    0,
  );
for (const [label, list] of Object.entries(results))
  console.log(
    `${label.padEnd(7)} wait p50 ${p50(list, 'waited')} ms, returned ${p50(list, 'afterPanel')} ms after the panel (p50); panel on the screenshot after: ${list.filter((run) => run.shown).length}/${list.length}`,
  );
const ratio = (a: Run[], b: Run[]) => round(p50(a, 'waited') / p50(b, 'waited'));
console.log(
  `wait time (p50) now / before: ${ratio(results.now, results.before)}×, now / pixels: ${ratio(results.now, results.pixels)}×, now / floor: ${ratio(results.now, results.floor)}×; limit ${LIMIT} ms, panel at ${PANEL_AT} ms after load, ${runs} runs each`,
);
