// npm run bench:image-formats — which format and quality to send model images in. Real Chromium
// renders representative screens (model-image-screens.ts: the demo shop's pages and a dense article,
// DPR 1 and 2, the golden marker on each); each screen, as the jail-service sends it (JPEG q80),
// is resized to each profile's size and encoded per variant through the sharp codec. Per profile and
// variant: mean bytes, the ratio to PNG of the lossless capture at the same size (what the reference
// SDK sends), PSNR against that lossless image, the largest shift of the golden marker's located
// centre, and the encode time. `BENCH_FULL=1` adds more qualities.
import { createSharpCodec, type ImageFormat } from '@clawdie/kit/images';
import sharp from 'sharp';
import { profileNamed } from '../controlplane/src/agent/profiles/index.js';
import { PROFILE_NAMES } from '../controlplane/src/agent/profiles/profile-types.js';
import { findMarker } from '../test/support/golden/find-marker.js';
import { round } from './bench-stats.js';
import { renderBenchScreens } from './model-image-screens.js';

const codec = createSharpCodec(sharp);
const full = process.env.BENCH_FULL === '1';
const variants: { format: ImageFormat; quality: number }[] = [
  ...(full ? [90, 80, 70, 60, 50] : [80, 60]).map((quality) => ({
    format: 'jpeg' as const,
    quality,
  })),
  ...(full ? [80, 70, 60, 50, 40, 30] : [60, 50, 40]).map((quality) => ({
    format: 'webp' as const,
    quality,
  })),
  { format: 'png', quality: 0 },
];

async function psnr(a: Buffer, b: Buffer): Promise<number> {
  const x = await sharp(a).removeAlpha().raw().toBuffer();
  const y = await sharp(b).removeAlpha().raw().toBuffer();
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += ((x[i] ?? 0) - (y[i] ?? 0)) ** 2;
  return 10 * Math.log10((255 * 255) / (sum / x.length));
}

const screens = await renderBenchScreens();
if (!screens) throw new Error('no Chromium (set CLAWDIE_CHROMIUM_PATH)');
// Profiles with the same image size give the same figures: one row set per distinct size rule.
const profiles = PROFILE_NAMES.filter(
  (name) => !['qwen2.5-vl', 'openai-computer-use'].includes(name),
);
const rows: Record<string, unknown>[] = [];
for (const name of profiles) {
  const profile = profileNamed(name);
  if (!profile) continue;
  const references = await Promise.all(
    screens.map(async (screen) => {
      const size = profile.image.size(screen.width, screen.height);
      const png = await sharp(screen.png)
        .resize(size.width, size.height, { fit: 'fill', kernel: 'lanczos3' })
        .png()
        .toBuffer();
      return { size, png, marker: (await findMarker(png)).centre };
    }),
  );
  const pngBytes = references.reduce((sum, ref) => sum + ref.png.length, 0);
  for (const variant of variants) {
    let bytes = 0;
    let decibels = 0;
    let shift = 0;
    let ms = 0;
    for (const [index, screen] of screens.entries()) {
      const ref = references[index];
      if (!ref) continue;
      const started = performance.now();
      const out = await codec.resize(screen.jpeg, { ...ref.size, fit: 'fill', ...variant });
      ms += performance.now() - started;
      bytes += out.length;
      decibels += await psnr(out, ref.png);
      const found = (await findMarker(out)).centre;
      if (found && ref.marker)
        shift = Math.max(shift, Math.hypot(found.x - ref.marker.x, found.y - ref.marker.y));
    }
    const n = screens.length;
    rows.push({
      profile: name,
      variant: variant.format === 'png' ? 'png' : `${variant.format} q${variant.quality}`,
      'kB mean': round(bytes / n / 1024, 1),
      'vs PNG': round(bytes / pngBytes, 3),
      'PSNR dB': round(decibels / n, 2),
      'marker shift px': round(shift, 2),
      'encode ms': round(ms / n, 1),
    });
  }
}
console.log(
  `${screens.length} screens: ${[...new Set(screens.map((s) => s.name))].join(', ')} at DPR 1 and 2`,
);
console.table(rows);
