// npm run bench:step — per-step overhead excluding the model: screenshot + one click through
// controlplane → HTTP → jail-service → CDP, against the same two operations as raw CDP calls on
// the same page of the same Chromium, interleaved in one run; and the same step gated as the loop
// runs it (landing, policy decision audited, the click pinned with `expect`: gated-step.ts), so
// the gate's share of a step is measured in the same run; then a step with network evidence
// recorded against the same step without it (CLAWDIE_JAIL_EVIDENCE=off, evidence-step.ts). Also
// prints the request bytes sent to the model per step with a full 5-screenshot window.
import sharp from 'sharp';
import { Conversation } from '../controlplane/src/agent/model/conversation.js';
import {
  DEFAULT_IMAGE_ENCODING,
  encodeForModel,
} from '../controlplane/src/agent/model/image-encoder.js';
import { uiTars15 } from '../controlplane/src/agent/profiles/ui-tars.js';
import { testImages } from '../test/support/test-images.js';
import { startBenchBrowser } from './bench-browser.js';
import { round, summarise } from './bench-stats.js';
import { measureEvidenceOverhead } from './evidence-step.js';
import { createGatedStep, landingMode } from './gated-step.js';

const iterations = Number(process.env.BENCH_ITERATIONS ?? 200);
const warmup = 20;

const bench = await startBenchBrowser();
const { browser } = bench;
try {
  const { operator } = bench;
  await operator.execute([{ type: 'navigate', url: `${bench.siteUrl}/` }]);
  const pages = await browser.pages();
  const page = pages.find((candidate) => candidate.url().startsWith(bench.siteUrl));
  if (!page) throw new Error('could not find the jail-service page in the browser');
  const cdp = await page.createCDPSession();

  const raw = async () => {
    await cdp.send('Page.captureScreenshot', {
      format: 'jpeg',
      quality: 80,
      captureBeyondViewport: false,
      fromSurface: true,
    });
    for (const type of ['mouseMoved', 'mousePressed', 'mouseReleased'] as const) {
      await cdp.send('Input.dispatchMouseEvent', {
        type,
        x: 5,
        y: 5,
        button: 'left',
        clickCount: 1,
      });
    }
  };
  const clawdie = async () => {
    await operator.screenshot();
    await operator.execute([{ type: 'click', x: 5, y: 5 }]);
  };
  const mode = await landingMode(operator);
  const gatedStep = createGatedStep(operator, mode);
  const gated = () => gatedStep.run();
  const time = async (fn: () => Promise<void>) => {
    const started = performance.now();
    await fn();
    return performance.now() - started;
  };

  for (let i = 0; i < warmup; i++) {
    await raw();
    await clawdie();
    await gated();
  }
  const rawSample: number[] = [];
  const clawdieSample: number[] = [];
  const gatedSample: number[] = [];
  const runs = [
    () => time(raw).then((ms) => rawSample.push(ms)),
    () => time(clawdie).then((ms) => clawdieSample.push(ms)),
    () => time(gated).then((ms) => gatedSample.push(ms)),
  ];
  for (let i = 0; i < iterations; i++) {
    // Rotate the order so no side always runs on a warmer cache.
    for (let k = 0; k < runs.length; k++) await runs[(i + k) % runs.length]?.();
  }
  gatedStep.close();
  const rawStats = summarise(rawSample);
  const clawdieStats = summarise(clawdieSample);
  const gatedStats = summarise(gatedSample);

  // Model request size per step with the full 5-image window (1280×800 → 1288×812 JPEG q80).
  const shot = await operator.screenshot();
  const image = await encodeForModel(
    shot,
    { image: uiTars15.image, encoding: DEFAULT_IMAGE_ENCODING },
    testImages,
  );
  const conversation = new Conversation({
    profile: uiTars15,
    instruction: 'Do the demo task',
    actionSpace: 'browser',
    imageWindow: 5,
  });
  for (let i = 0; i < 5; i++) {
    conversation.addScreenshot(image);
    if (i < 4)
      conversation.addReply({
        raw: "Thought: I will click the search box.\nAction: click(start_box='<|box_start|>(644,406)<|box_end|>')",
        text: '',
      });
  }
  const body = JSON.stringify({
    model: 'ui-tars-1.5-7b',
    ...conversation.request(),
    max_tokens: 1024,
    temperature: 0,
  });
  const png = await sharp(shot.jpeg)
    .resize(image.width, image.height, { fit: 'fill' })
    .png()
    .toBuffer();
  const referenceBytes =
    Buffer.byteLength(body) +
    5 * (Math.ceil((png.length * 4) / 3) - Math.ceil((image.bytes * 4) / 3));

  const result = {
    iterations,
    raw_cdp_ms: rawStats,
    clawdie_ms: clawdieStats,
    ratio_p50: round(clawdieStats.p50 / rawStats.p50),
    ratio_p90: round(clawdieStats.p90 / rawStats.p90),
    gated_ms: gatedStats,
    gated_landing: mode,
    gate_share_p50: round((gatedStats.p50 - clawdieStats.p50) / clawdieStats.p50),
    model_request_bytes_5_images: Buffer.byteLength(body),
    model_image: { width: image.width, height: image.height, jpeg_bytes: image.bytes },
    reference_png_request_bytes_5_images: referenceBytes,
    bytes_ratio_vs_png: round(Buffer.byteLength(body) / referenceBytes),
  };
  console.log(JSON.stringify(result, null, 2));
  console.log(
    `step overhead p50: clawdie ${clawdieStats.p50} ms vs raw CDP ${rawStats.p50} ms → ${result.ratio_p50}× (target ≤ 1.3×)`,
  );
  console.log(
    `gated step p50: ${gatedStats.p50} ms vs ungated ${clawdieStats.p50} ms → gate +${round(result.gate_share_p50 * 100, 1)} % of the step (goal ≤ 10 %; landing: ${mode})`,
  );
  console.log(
    `model request per step with 5 screenshots: ${(result.model_request_bytes_5_images / 1024).toFixed(1)} KiB (PNG like the reference SDK: ${(referenceBytes / 1024).toFixed(1)} KiB)`,
  );
} finally {
  await bench.close();
}

// Network evidence on and off, the same step interleaved (bench/evidence-step.ts).
const evidence = await measureEvidenceOverhead(Math.min(iterations, 100), warmup);
console.log(JSON.stringify({ evidence }, null, 2));
console.log(
  `network evidence: execute p50 ${evidence.with_evidence.execute_ms.p50} ms with vs ${evidence.without_evidence.execute_ms.p50} ms without → ${round(evidence.execute_share_p50 * 100, 1)} % of the execute time (goal ≤ 5 %)`,
);
