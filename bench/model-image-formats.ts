// npm run bench:image-formats — which format and quality to send model images in. Real Chromium
// renders representative screens (model-image-screens.ts: the demo shop's pages and a dense article,
// DPR 1 and 2, the golden marker on each); each screen, as the jail-service sends it (JPEG q80),
// is resized to each profile's size and encoded per variant through the sharp codec. Per profile and
// variant: mean bytes, the ratio to PNG of the lossless capture at the same size (what the reference
// SDK sends), PSNR and text-region SSIM against that lossless image (image-fidelity.ts), the largest
// shift of the golden marker's located centre, the encode time, and whether the variant grounds as
// well as the lossless image by this bench's check: the marker found within 1 px of its lossless
// centre on every screen and a mean text-region SSIM of at least 0.99 (at most 1 % of the text
// blocks' structure lost). `BENCH_FULL=1` adds more qualities and sharp's WebP options.
import { createSharpCodec, type ImageFormat } from '@clawdie/kit/images';
import sharp, { type JpegOptions, type WebpOptions } from 'sharp';
import { profileNamed } from '../controlplane/src/agent/profiles/index.js';
import { PROFILE_NAMES } from '../controlplane/src/agent/profiles/profile-types.js';
import { findMarker } from '../test/support/golden/find-marker.js';
import { round } from './bench-stats.js';
import { psnr, textSsim } from './image-fidelity.js';
import { renderBenchScreens } from './model-image-screens.js';

const codec = createSharpCodec(sharp);
const full = process.env.BENCH_FULL === '1';
const GROUNDING_SSIM = 0.99;
const GROUNDING_SHIFT_PX = 1;

interface Variant {
  label: string;
  encode(screen: Buffer, size: { width: number; height: number }): Promise<Buffer>;
}
/** A variant through the codec, as the controlplane encodes. */
const viaCodec = (format: ImageFormat, quality: number): Variant => ({
  label: format === 'png' ? 'png' : `${format} q${quality}`,
  encode: (screen, size) => codec.resize(screen, { ...size, fit: 'fill', format, quality }),
});
/** A WebP variant with sharp options the codec does not set (effort, preset, smartSubsample). */
const webpWith = (quality: number, options: WebpOptions, label: string): Variant => ({
  label: `webp q${quality} ${label}`,
  encode: (screen, size) =>
    sharp(screen)
      .resize(size.width, size.height, { fit: 'fill', kernel: 'lanczos3' })
      .webp({ quality, ...options })
      .toBuffer(),
});
/** A JPEG variant with sharp options the codec does not set (mozjpeg's trellis quantisation). */
const jpegWith = (quality: number, options: JpegOptions, label: string): Variant => ({
  label: `jpeg q${quality} ${label}`,
  encode: (screen, size) =>
    sharp(screen)
      .resize(size.width, size.height, { fit: 'fill', kernel: 'lanczos3' })
      .jpeg({ quality, ...options })
      .toBuffer(),
});
const variants: Variant[] = [
  ...(full ? [90, 80, 75, 70, 65, 60, 50] : [80, 70]).map((q) => viaCodec('jpeg', q)),
  ...(full ? [80, 70].map((q) => jpegWith(q, { mozjpeg: true }, 'mozjpeg')) : []),
  // The codec writes progressive JPEG with optimised scans: each part's cost on its own.
  jpegWith(80, { progressive: true }, 'progressive, scans not optimised'),
  jpegWith(80, {}, 'baseline'),
  ...(full ? [80, 70, 60, 50, 40, 30, 20, 10] : [50, 40, 30, 10]).map((q) => viaCodec('webp', q)),
  // sharp's default effort is 4: the lower efforts trade bytes for encode time.
  ...[40, 10].flatMap((q) => [0, 1, 2, 3].map((e) => webpWith(q, { effort: e }, `effort ${e}`))),
  ...(full
    ? [50, 40, 30].flatMap((q) => [
        webpWith(q, { effort: 6 }, 'effort 6'),
        webpWith(q, { preset: 'text' }, "preset 'text'"),
        webpWith(q, { smartSubsample: true }, 'smartSubsample'),
        webpWith(q, { preset: 'picture' }, "preset 'picture'"),
      ])
    : []),
  viaCodec('png', 0),
];

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
    let ssim = 0;
    let shift = 0;
    let lost = 0;
    let ms = 0;
    for (const [index, screen] of screens.entries()) {
      const ref = references[index];
      if (!ref) continue;
      const started = performance.now();
      const out = await variant.encode(screen.jpeg, ref.size);
      ms += performance.now() - started;
      bytes += out.length;
      decibels += await psnr(out, ref.png);
      ssim += await textSsim(out, ref.png);
      const found = (await findMarker(out)).centre;
      if (found && ref.marker)
        shift = Math.max(shift, Math.hypot(found.x - ref.marker.x, found.y - ref.marker.y));
      else lost++;
    }
    const n = screens.length;
    const grounds = lost === 0 && shift <= GROUNDING_SHIFT_PX && ssim / n >= GROUNDING_SSIM;
    rows.push({
      profile: name,
      variant: variant.label,
      'kB mean': round(bytes / n / 1024, 1),
      'vs PNG': round(bytes / pngBytes, 3),
      'PSNR dB': round(decibels / n, 2),
      'text SSIM': round(ssim / n, 4),
      'marker shift px': round(shift, 2),
      grounds: grounds ? 'yes' : 'no',
      'encode ms': round(ms / n, 1),
    });
  }
}
console.log(
  `${screens.length} screens: ${[...new Set(screens.map((s) => s.name))].join(', ')} at DPR 1 and 2`,
);
console.table(rows);
