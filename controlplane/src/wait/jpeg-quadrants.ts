// Block quadrant means from DCT coefficients, for the DC-only JPEG decoder's halved (chroma)
// components: the mean of a half of the 8 samples of a 1-D IDCT depends only on the DC and the odd
// frequencies, so a quadrant's mean is a weighted sum of at most 25 coefficients (libjpeg's 2×2
// reduced IDCT computes the same).

/** Zig-zag index → natural (row-major) index in an 8×8 block. */
const ZIGZAG = Int8Array.from([
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20,
  13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52,
  45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
]);

/**
 * Contribution of frequency `f` to the mean of the first 4 of the 8 samples of the 1-D IDCT (the
 * second half's is the same for f = 0, negated for odd f; even f > 0 cancel over a half).
 */
const HALF_MEAN = Float64Array.from({ length: 8 }, (_, f) => {
  if (f === 0) return Math.SQRT1_2 / 2;
  let sum = 0;
  for (let n = 0; n < 4; n++) sum += Math.cos(((2 * n + 1) * f * Math.PI) / 16);
  return f % 2 === 0 ? 0 : sum / 8;
});

/** That contribution to half `half` of 2 (`halves` 2), or to the mean of all 8 (`halves` 1). */
function halfMean(f: number, half: number, halves: number): number {
  if (f === 0) return HALF_MEAN[0] as number;
  if (halves === 1) return 0;
  return (half === 0 ? 1 : -1) * (HALF_MEAN[f] as number);
}

/** Per zig-zag index, the dequantised weight of a coefficient in each of the 4 quadrant means. */
export function quadrantWeights(
  quant: Int32Array,
  nx: number,
  ny: number,
  into: Float64Array,
): void {
  for (let q = 0; q < 4; q++) {
    for (let k = 0; k < 64; k++) {
      const natural = ZIGZAG[k] as number;
      const u = halfMean(natural & 7, q & 1, nx);
      into[q * 64 + k] = u * halfMean(natural >> 3, q >> 1, ny) * (quant[k] as number);
    }
  }
}
