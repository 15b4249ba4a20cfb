// npm run bench:desktop — per-step overhead excluding the model (screenshot + one click) of the
// desktop surface (controlplane → HTTP → jail-service /desktop → xwd + the image codec, xdotool on Xvfb)
// against the browser surface (controlplane → HTTP → jail-service → CDP), both 1280×800,
// interleaved in one run.

import type { BrowserOperator } from '../controlplane/src/browser/operator/browser-operator.js';
import { childEnvironment } from '../controlplane/src/platform/runner/child-environment.js';
import { startDesktopJail } from '../test/support/desktop-jail.js';
import { testLauncher } from '../test/support/test-launcher.js';
import { startBenchBrowser } from './bench-browser.js';
import { round, summarise } from './bench-stats.js';

const iterations = Number(process.env.BENCH_ITERATIONS ?? 60);
const warmup = 5;

const jail = await startDesktopJail({ width: 1280, height: 800 });
const { xvfb } = jail;
// A real X11 program on screen, so the JPEG is not a trivially flat frame.
const xedit = await testLauncher.launch({
  argv: ['xedit'],
  env: childEnvironment({ PATH: '/usr/bin:/bin', DISPLAY: xvfb.display }),
});
const bench = await startBenchBrowser();
try {
  const browserOperator = bench.operator;
  await browserOperator.execute([{ type: 'navigate', url: `${bench.siteUrl}/` }]);
  const desktopOperator = jail.operator;
  // (300, 300) lies in xedit's text pane: the click only moves its caret.
  const step = (operator: BrowserOperator, x: number, y: number) => async () => {
    const started = performance.now();
    const { jpeg } = await operator.screenshot();
    const shot = performance.now() - started;
    await operator.execute([{ type: 'click', x, y }]);
    return { total: performance.now() - started, shot, bytes: jpeg.length };
  };
  const desktopStep = step(desktopOperator, 300, 300);
  const browserStep = step(browserOperator, 5, 5);
  for (let i = 0; i < warmup; i++) {
    await desktopStep();
    await browserStep();
  }
  const desktop: Array<Awaited<ReturnType<typeof desktopStep>>> = [];
  const browserSample: typeof desktop = [];
  for (let i = 0; i < iterations; i++) {
    // Alternate the order so neither side always runs on a warmer cache.
    if (i % 2 === 0) {
      desktop.push(await desktopStep());
      browserSample.push(await browserStep());
    } else {
      browserSample.push(await browserStep());
      desktop.push(await desktopStep());
    }
  }
  const stats = (sample: typeof desktop) => ({
    step_ms: summarise(sample.map((s) => s.total)),
    screenshot_ms: summarise(sample.map((s) => s.shot)),
    click_ms: summarise(sample.map((s) => s.total - s.shot)),
    jpeg_bytes_p50: summarise(sample.map((s) => s.bytes)).p50,
  });
  const desktopStats = stats(desktop);
  const browserStats = stats(browserSample);
  const result = {
    iterations,
    screen: '1280x800',
    desktop: desktopStats,
    browser: browserStats,
    ratio_p50: round(desktopStats.step_ms.p50 / browserStats.step_ms.p50),
    ratio_p90: round(desktopStats.step_ms.p90 / browserStats.step_ms.p90),
  };
  console.log(JSON.stringify(result, null, 2));
  console.log(
    `step overhead p50: desktop ${desktopStats.step_ms.p50} ms vs browser ${browserStats.step_ms.p50} ms → ${result.ratio_p50}×`,
  );
} finally {
  await bench.close();
  await xedit.stop(2000);
  await jail.close();
}
