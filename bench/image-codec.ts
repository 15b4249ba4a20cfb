// The pure-JS image codec against sharp on the model's screenshot encode: a 1280×800 JPEG
// screenshot (UI-like: panels, text-like stripes, a photo-like gradient) resized to UI-TARS-1.5's
// smart_resize size and re-encoded at quality 80, as every agent step does. Prints p50/p95 of each
// and the js/sharp ratio; also the desktop surface's raw → JPEG encode and the judge's downscale.
// Run: npm run bench:images
import { createJsCodec, createSharpCodec, type ImageCodec } from '@clawdie/kit/images';
import sharp from 'sharp';
import {
  DEFAULT_IMAGE_ENCODING,
  encodeForModel,
} from '../controlplane/src/agent/model/image-encoder.js';
import { uiTars15 } from '../controlplane/src/agent/profiles/ui-tars.js';

const W = 1280;
const H = 800;

function uiFrame(): Uint8Array {
  const data = new Uint8Array(W * H * 3).fill(236);
  const fill = (x0: number, y0: number, w: number, h: number, rgb: number[]) => {
    for (let y = y0; y < y0 + h; y++) {
      for (let x = x0; x < x0 + w; x++) data.set(rgb, (y * W + x) * 3);
    }
  };
  fill(0, 0, W, 56, [45, 45, 45]); // title bar
  fill(0, 56, 240, H - 56, [250, 250, 250]); // side bar
  for (let line = 0; line < 30; line++) {
    // text-like stripes: short dark runs on white
    for (let x = 280; x < 1180; x += 9) fill(x, 90 + line * 22, 6 + (x % 4), 10, [30, 30, 30]);
  }
  for (let y = 0; y < 180; y++) {
    for (let x = 0; x < 320; x++)
      data.set([x & 255, (y * 2) & 255, (x ^ y) & 255], ((600 + y) * W + 900 + x) * 3);
  }
  return data;
}

async function time(label: string, runs: number, fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 5; i++) await fn(); // warm-up (JIT)
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const p = (q: number) => samples[Math.floor(q * (samples.length - 1))] as number;
  console.log(`${label.padEnd(52)} p50 ${p(0.5).toFixed(1)} ms  p95 ${p(0.95).toFixed(1)} ms`);
  return p(0.5);
}

const raw = { width: W, height: H, channels: 3 as const, data: uiFrame() };
const screenshot = await sharp(raw.data, { raw: { width: W, height: H, channels: 3 } })
  .jpeg({ quality: 80 })
  .toBuffer();
const shot = {
  jpeg: screenshot,
  meta: { viewportWidth: W, viewportHeight: H, devicePixelRatio: 1, imageWidth: W, imageHeight: H },
};
const target = uiTars15.image.size(W, H);
console.log(
  `screenshot ${W}×${H} JPEG q80 (${screenshot.length} bytes) → model ${target.width}×${target.height} q80`,
);

const codecs: ImageCodec[] = [createSharpCodec(sharp), createJsCodec()];
const model: Record<string, number> = {};
for (const codec of codecs) {
  const name = codec.kind;
  model[name] = await time(`${name}: model screenshot encode`, 20, () =>
    encodeForModel(shot, { image: uiTars15.image, encoding: DEFAULT_IMAGE_ENCODING }, codec),
  );
  await time(`${name}: desktop raw ${W}×${H} → JPEG q80`, 20, () => codec.encodeJpeg(raw, 80));
  await time(`${name}: judge downscale to 768 q72`, 20, () =>
    codec.resizeJpeg(screenshot, { width: 768, height: 768, fit: 'inside', quality: 72 }),
  );
}
console.log(
  `js/sharp ratio, model screenshot encode at ${W}×${H}: ${((model.js ?? 0) / (model.sharp ?? 1)).toFixed(1)}×`,
);
