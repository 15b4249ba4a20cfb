// Pixel-diff gate cost per 1920×1080 frame, and model evaluations avoided on a static screen.
// Run: node --conditions=source --import tsx bench/wait-gate.ts
import sharp from 'sharp';
import {
  diffThumbnails,
  type Thumbnail,
  thumbnailOfImage,
  thumbnailOfRaw,
} from '../controlplane/src/wait/frame-diff.js';
import { FrameHub } from '../controlplane/src/wait/frame-hub.js';
import { WaitEngine } from '../controlplane/src/wait/wait-engine.js';
import { createManualClock } from '../test/support/manual-clock.js';
import { testImages } from '../test/support/test-images.js';

const W = 1920;
const H = 1080;
const raw = Buffer.alloc(W * H * 4);
for (let i = 0; i < raw.length; i += 4) {
  const x = (i / 4) % W;
  const y = Math.floor(i / 4 / W);
  raw[i] = (x * 7 + y) & 255;
  raw[i + 1] = (y * 3) & 255;
  raw[i + 2] = (x ^ y) & 255;
  raw[i + 3] = 255;
}
const jpeg = await sharp(raw, { raw: { width: W, height: H, channels: 4 } })
  .jpeg({ quality: 80 })
  .toBuffer();

async function time(label: string, runs: number, fn: () => Promise<unknown> | unknown) {
  for (let i = 0; i < 30; i++) await fn(); // warm-up: the JS decoder needs the optimising JIT
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const p = (q: number) => (samples[Math.floor(q * (samples.length - 1))] as number).toFixed(3);
  console.log(`${label.padEnd(44)} p50 ${p(0.5)} ms  p95 ${p(0.95)} ms`);
}

// A UI-like frame (flat panels, text-like stripes): what screens usually look like.
const panels = [
  {
    input: await sharp({ create: { width: W, height: 40, channels: 3, background: '#2d2d2d' } })
      .png()
      .toBuffer(),
    top: 0,
    left: 0,
  },
  {
    input: await sharp({ create: { width: 900, height: 600, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer(),
    top: 200,
    left: 300,
  },
  ...Array.from({ length: 30 }, (_, i) => ({
    input: Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="16"><text x="0" y="13" font-size="13">Line ${i} of a document with some words in it</text></svg>`,
    ),
    top: 220 + i * 18,
    left: 320,
  })),
];
const ui = await sharp({ create: { width: W, height: H, channels: 3, background: '#ececec' } })
  .composite(panels)
  .jpeg({ quality: 80 })
  .toBuffer();
const u = await thumbnailOfImage(ui, testImages);
await time('UI-like JPEG 1920×1080 → thumbnail + diff', 200, async () =>
  diffThumbnails(u, await thumbnailOfImage(ui, testImages)),
);

// Through the FrameHub, as the wait engine captures: a static screen re-captured as the same
// bytes reuses the previous thumbnail (no decode); a changed screen pays the scaled decode.
const hubClock = createManualClock(0);
const hub = new FrameHub(hubClock, testImages);
const uiChanged = await sharp(ui)
  .composite([
    {
      input: Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" fill="red"/></svg>`,
      ),
      top: 12,
      left: 1800,
    },
  ])
  .jpeg({ quality: 80 })
  .toBuffer();
let flip = false;
const staticSource = { key: 'static', capture: async () => Buffer.from(ui) };
const changingSource = {
  key: 'changing',
  capture: async () => {
    flip = !flip;
    return flip ? uiChanged : ui;
  },
};
const last = new Map<string, Thumbnail>();
async function gate(source: typeof staticSource) {
  hubClock.advance(1000);
  const { thumbnail } = await hub.frame(source, 0);
  const previous = last.get(source.key) ?? thumbnail;
  last.set(source.key, thumbnail);
  return diffThumbnails(previous, thumbnail);
}
await time('gate per frame, static UI (same bytes)', 200, () => gate(staticSource));
await time('gate per frame, changing UI', 200, () => gate(changingSource));

// Where a changed frame's time goes: the JS DC-only decode the gate uses for baseline JPEGs, the
// sharp 1/8 shrink-on-load decode it used before (and still uses for other images), and sharp's
// fixed cost per pipeline (an 8×8 JPEG).
await time('changed UI: JS DC-only decode → thumbnail', 200, () =>
  thumbnailOfImage(uiChanged, testImages),
);
const viaSharp = (image: Buffer) =>
  sharp(image, { failOn: 'none' })
    .resize(240, 135, { fit: 'fill', kernel: 'linear', fastShrinkOnLoad: true })
    .removeAlpha()
    .raw()
    .toBuffer();
await time('changed UI: sharp 1/8 decode (previous path)', 200, () => viaSharp(uiChanged));
const tiny = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } })
  .jpeg()
  .toBuffer();
await time('sharp pipeline alone (8×8 JPEG → raw)', 200, () => sharp(tiny).raw().toBuffer());

const a = await thumbnailOfImage(jpeg, testImages);
const b = await thumbnailOfImage(jpeg, testImages);
await time('diff of two 240×135 thumbnails', 500, () => diffThumbnails(a, b));
await time('diff, every cell differs', 500, () => diffThumbnails(a, u));
await time('noisy JPEG: sharp 1/8 decode (previous path)', 200, () => viaSharp(jpeg));
await time('JPEG 1920×1080 → thumbnail (scaled decode)', 200, () =>
  thumbnailOfImage(jpeg, testImages),
);
await time('raw RGBA 1920×1080 → thumbnail', 200, () =>
  thumbnailOfRaw(raw, { width: W, height: H, channels: 4 }, testImages),
);
await time('gate total (JPEG → thumbnail + diff)', 200, async () =>
  diffThumbnails(a, await thumbnailOfImage(jpeg, testImages)),
);

const clock = createManualClock(0);
let calls = 0;
const engine = new WaitEngine({
  images: testImages,
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
  target: { frames: { key: 'd', capture: async () => jpeg } },
}).outcome;
const ungated1s = 600;
const ungated500 = 1200;
console.log(
  `static screen, 10 min: ${calls} model calls, ${outcome.skippedEvaluations} skipped by the gate, ${outcome.captures} captures; ` +
    `ungated 1 s poll = ${ungated1s} calls (${((100 * calls) / ungated1s).toFixed(1)} %), 500 ms poll = ${ungated500} (${((100 * calls) / ungated500).toFixed(1)} %)`,
);
