// Pixel-diff gate cost per changed frame through the process's image codec (sharp, and the pure-JS
// fallback), against baselines measured in the same run: sharp's fixed cost per pipeline and the
// shortest poll interval; and model evaluations avoided on a static screen.
// Run: npm run bench:wait
import { performance } from 'node:perf_hooks';
import { createJsCodec, createSharpCodec, type ImageCodec } from '@clawdie/kit/images';
import sharp from 'sharp';
import { diffThumbnails, type Thumbnail } from '../controlplane/src/browser/wait/frame-diff.js';
import { FrameHub } from '../controlplane/src/browser/wait/frame-hub.js';
import { WaitEngine } from '../controlplane/src/browser/wait/wait-engine.js';
import { DEFAULT_POLL } from '../controlplane/src/browser/wait/wait-job.js';
import { createManualClock } from '../test/support/manual-clock.js';

interface Timing {
  p50: number;
  p95: number;
  /** Event-loop (main-thread) time per call; sharp's decode runs on the libuv threadpool. */
  main: number;
}

async function time(label: string, runs: number, fn: () => Promise<unknown> | unknown) {
  for (let i = 0; i < Math.min(30, runs); i++) await fn(); // warm-up (JIT, sharp's caches)
  const samples: number[] = [];
  const loop = performance.eventLoopUtilization();
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  const main = performance.eventLoopUtilization(loop).active / runs;
  samples.sort((a, b) => a - b);
  const p = (q: number) => samples[Math.floor(q * (samples.length - 1))] as number;
  const timing: Timing = { p50: p(0.5), p95: p(0.95), main };
  const ms = (value: number) => `${value.toFixed(3)} ms`;
  console.log(
    `${label.padEnd(46)} p50 ${ms(timing.p50)}  p95 ${ms(timing.p95)}  main thread ${ms(main)}`,
  );
  return timing;
}

/** A UI-like frame (flat panels, 30 lines of text), optionally with a 16×16 red icon. */
async function uiFrame(width: number, height: number, icon = false): Promise<Buffer> {
  const text = Array.from(
    { length: 30 },
    (_, i) =>
      `<text x="320" y="${233 + i * 18}" font-size="13">Line ${i} of a document with some words in it</text>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="40" fill="#2d2d2d"/><rect x="300" y="200" width="900" height="600" fill="#fff"/>
    ${text}${icon ? `<rect x="${width - 120}" y="12" width="16" height="16" fill="red"/>` : ''}</svg>`;
  return sharp({ create: { width, height, channels: 3, background: '#ececec' } })
    .composite([{ input: Buffer.from(svg), top: 0, left: 0 }])
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** A noisy gradient: the worst case for a JPEG decoder (every block has detail). */
async function noisyFrame(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0, p = 0; i < raw.length; i += 3, p++) {
    const x = p % width;
    const y = Math.floor(p / width);
    raw[i] = (x * 7 + y) & 255;
    raw[i + 1] = (y * 3) & 255;
    raw[i + 2] = (x ^ y) & 255;
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** The gate as the wait engine runs it: FrameHub capture → thumbnail → diff with the last one. */
function gateOver(codec: ImageCodec, frames: Buffer[]) {
  const clock = createManualClock(0);
  const hub = new FrameHub(clock, codec);
  let next = 0;
  const source = { key: 'd', capture: async () => frames[next++ % frames.length] as Buffer };
  let last: Thumbnail | null = null;
  return async () => {
    clock.advance(1000);
    const { thumbnail } = await hub.frame(source, 0);
    const diff = diffThumbnails(last ?? thumbnail, thumbnail);
    last = thumbnail;
    return diff;
  };
}

const native = createSharpCodec(sharp);
const js = createJsCodec();
const big = [await uiFrame(1920, 1080), await uiFrame(1920, 1080, true)];
const small = [await uiFrame(1280, 800), await uiFrame(1280, 800, true)];
const noisy = await noisyFrame(1920, 1080);
console.log(
  `frames: UI-like JPEG q80 1920×1080 (${big[0]?.length} bytes), 1280×800 (${small[0]?.length}), noisy 1920×1080 (${noisy.length})`,
);

const tiny = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } })
  .jpeg()
  .toBuffer();
const floor = await time('baseline: sharp pipeline alone (8×8 JPEG)', 200, () =>
  sharp(tiny).raw().toBuffer(),
);
await time('static screen, same bytes (no decode)', 200, gateOver(native, [big[0] as Buffer]));
const sharpBig = await time('sharp: changed frame 1920×1080', 200, gateOver(native, big));
await time('sharp: changed frame 1280×800', 200, gateOver(native, small));
await time('sharp: noisy frame 1920×1080', 100, gateOver(native, [noisy, big[0] as Buffer]));
const jsBig = await time('pure JS: changed frame 1920×1080', 20, gateOver(js, big));
await time('pure JS: changed frame 1280×800', 20, gateOver(js, small));
await time('pure JS: noisy frame 1920×1080', 10, gateOver(js, [noisy, big[0] as Buffer]));

const [a, b] = await Promise.all(big.map((frame) => native.reduce(frame, 8)));
const thumb = (r: Awaited<ReturnType<ImageCodec['reduce']>> | undefined) => ({
  ...(r as NonNullable<typeof r>).image,
  sourceWidth: 1920,
  sourceHeight: 1080,
});
await time('diff alone, 240×135 cells, one icon changed', 500, () =>
  diffThumbnails(thumb(a), thumb(b)),
);

const poll = DEFAULT_POLL.minPollMs;
const ratio = (x: number, y: number) => `${(x / y).toFixed(1)}×`;
const share = (x: number) => `${((100 * x) / poll).toFixed(2)} %`;
console.log(
  `sharp changed frame / sharp pipeline alone, p50: ${ratio(sharpBig.p50, floor.p50)}\n` +
    `js/sharp ratio, changed frame 1920×1080, p50: ${ratio(jsBig.p50, sharpBig.p50)}\n` +
    `main-thread share of a ${poll} ms poll: sharp ${share(sharpBig.main)}, pure JS ${share(jsBig.main)}`,
);

const clock = createManualClock(0);
let calls = 0;
const engine = new WaitEngine({
  images: native,
  clock,
  judge: {
    async judge() {
      calls += 1;
      return { decision: 'watching', reason: 'static' };
    },
  },
});
const outcome = await engine.start({
  conditions: [{ type: 'visual', description: 'never' }],
  timeoutMs: 600_000,
  target: { frames: { key: 'd', capture: async () => noisy } },
}).outcome;
const ungated1s = 600;
const ungated500 = 1200;
console.log(
  `static screen, 10 min: ${calls} model calls, ${outcome.skippedEvaluations} skipped by the gate, ${outcome.captures} captures; ` +
    `ungated 1 s poll = ${ungated1s} calls (${((100 * calls) / ungated1s).toFixed(1)} %), 500 ms poll = ${ungated500} (${((100 * calls) / ungated500).toFixed(1)} %)`,
);
