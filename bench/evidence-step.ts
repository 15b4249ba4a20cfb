// Part of npm run bench:step — what recording network evidence costs a step (issue 23): two
// jail-services, each on its own Chromium, one recording (the default) and one with
// CLAWDIE_JAIL_EVIDENCE=off, take the same step interleaved in one run: a screenshot and a click
// whose handler fetches (so the recorded side has a request to report and wait for).
import type { BrowserOperator } from '../controlplane/src/browser/operator/browser-operator.js';
import { htmlPage, startStaticSite } from '../test/support/static-site.js';
import { startBenchBrowser } from './bench-browser.js';
import { round, summarise } from './bench-stats.js';

const page = htmlPage(
  'evidence',
  `<button style="position:fixed;inset:0;width:100%;height:100%" onclick="fetch('/api/item?i=' + Date.now(), {method: 'POST', body: 'x'})">Save</button>`,
);

export async function measureEvidenceOverhead(iterations: number, warmup: number) {
  const site = await startStaticSite({
    '/': page,
    '/api/item': { contentType: 'application/json', body: '{"ok":true}' },
  });
  const on = await startBenchBrowser();
  const off = await startBenchBrowser(undefined, { CLAWDIE_JAIL_EVIDENCE: 'off' });
  try {
    for (const side of [on, off])
      await side.operator.execute([{ type: 'navigate', url: `${site.url}/` }]);
    const sides = [
      { operator: on.operator, step: [] as number[], execute: [] as number[], entries: 0 },
      { operator: off.operator, step: [] as number[], execute: [] as number[], entries: 0 },
    ];
    const run = async (side: (typeof sides)[number], record: boolean) => {
      const started = performance.now();
      await side.operator.screenshot();
      const executed = performance.now();
      const response = await clickOnce(side.operator);
      const ended = performance.now();
      if (!record) return;
      side.step.push(ended - started);
      side.execute.push(ended - executed);
      side.entries += response.evidence?.entries.length ?? 0;
    };
    for (let i = 0; i < warmup; i++) for (const side of sides) await run(side, false);
    for (let i = 0; i < iterations; i++)
      for (let k = 0; k < sides.length; k++) await run(sides[(i + k) % 2] as never, true);
    const [recorded, bare] = sides.map((side) => ({
      step_ms: summarise(side.step),
      execute_ms: summarise(side.execute),
      entries_per_step: round(side.entries / iterations),
    })) as [Stats, Stats];
    return {
      with_evidence: recorded,
      without_evidence: bare,
      execute_share_p50: round(
        (recorded.execute_ms.p50 - bare.execute_ms.p50) / bare.execute_ms.p50,
        3,
      ),
      step_share_p50: round((recorded.step_ms.p50 - bare.step_ms.p50) / bare.step_ms.p50, 3),
    };
  } finally {
    await on.close();
    await off.close();
    await site.close();
  }
}

interface Stats {
  step_ms: ReturnType<typeof summarise>;
  execute_ms: ReturnType<typeof summarise>;
  entries_per_step: number;
}

function clickOnce(operator: BrowserOperator) {
  return operator.execute([{ type: 'click', x: 300, y: 300 }]);
}
