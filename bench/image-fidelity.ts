// Fidelity of an encoded model image against the lossless capture at the same size, for the
// model-image benches: PSNR over the whole image and SSIM over its text regions. SSIM is computed
// on luma in 8 × 8 blocks (Wang et al. 2004, with the usual C1, C2); a block counts as text (or an
// edge) when the lossless block's luma standard deviation is at least 24 — flat backgrounds, which
// every encoder keeps, would otherwise hide what happens to small text.
import sharp from 'sharp';

const BLOCK = 8;
const TEXT_STD = 24;
const C1 = (0.01 * 255) ** 2;
const C2 = (0.03 * 255) ** 2;

async function luma(image: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(image)
    .removeAlpha()
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

export async function psnr(image: Buffer, reference: Buffer): Promise<number> {
  const x = await sharp(image).removeAlpha().raw().toBuffer();
  const y = await sharp(reference).removeAlpha().raw().toBuffer();
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += ((x[i] ?? 0) - (y[i] ?? 0)) ** 2;
  return 10 * Math.log10((255 * 255) / (sum / x.length));
}

/** Mean SSIM over the reference's text blocks (1 = identical). */
export async function textSsim(image: Buffer, reference: Buffer): Promise<number> {
  const a = await luma(image);
  const b = await luma(reference);
  let total = 0;
  let blocks = 0;
  for (let by = 0; by + BLOCK <= b.height; by += BLOCK) {
    for (let bx = 0; bx + BLOCK <= b.width; bx += BLOCK) {
      let sa = 0;
      let sb = 0;
      let saa = 0;
      let sbb = 0;
      let sab = 0;
      for (let y = by; y < by + BLOCK; y++) {
        for (let x = bx; x < bx + BLOCK; x++) {
          const i = y * b.width + x;
          const p = a.data[i] ?? 0;
          const q = b.data[i] ?? 0;
          sa += p;
          sb += q;
          saa += p * p;
          sbb += q * q;
          sab += p * q;
        }
      }
      const n = BLOCK * BLOCK;
      const ma = sa / n;
      const mb = sb / n;
      const vb = sbb / n - mb * mb;
      if (vb < TEXT_STD * TEXT_STD) continue;
      const va = saa / n - ma * ma;
      const cov = sab / n - ma * mb;
      total += ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
      blocks++;
    }
  }
  return blocks === 0 ? 1 : total / blocks;
}
