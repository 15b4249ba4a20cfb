/**
 * smart_resize of Qwen2.5-VL / UI-TARS-1.5: the image size the model server actually feeds to
 * the vision encoder. UI-TARS-1.5 writes absolute pixel coordinates of this resized image, so the
 * controlplane must recompute it exactly as the (Python) server does. Unlike the reference JS SDK
 * it uses Python's half-to-even rounding (see uitars-protocol.md §3.3, issue #1730).
 */

/** Side length (px) of one visual token; resized sides are multiples of it. */
export const IMAGE_FACTOR = 28;
/** Minimum pixel count of the resized image (100 visual tokens). */
export const MIN_PIXELS = 100 * 28 * 28;
/** Maximum pixel count of the resized image for UI-TARS-1.5 (16384 visual tokens). */
export const MAX_PIXELS_V1_5 = 16384 * 28 * 28;
/** Largest accepted aspect ratio (long side / short side). */
export const MAX_RATIO = 200;

/** Python-compatible round (half to even). */
export function roundHalfEven(value: number): number {
  if (!Number.isFinite(value)) return value;
  const floor = Math.floor(value);
  const diff = value - floor;
  if (diff < 0.5) return floor;
  if (diff > 0.5) return floor + 1;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** smart_resize of Qwen2.5-VL / UI-TARS-1.5; null when the aspect ratio exceeds MAX_RATIO. */
export function smartResize(
  width: number,
  height: number,
  options?: { factor?: number; minPixels?: number; maxPixels?: number },
): { width: number; height: number } | null {
  const factor = options?.factor ?? IMAGE_FACTOR;
  const minPixels = options?.minPixels ?? MIN_PIXELS;
  const maxPixels = options?.maxPixels ?? MAX_PIXELS_V1_5;
  if (!(width > 0 && height > 0 && Number.isFinite(width) && Number.isFinite(height))) return null;
  if (Math.max(width, height) / Math.min(width, height) > MAX_RATIO) return null;

  let hBar = Math.max(factor, roundHalfEven(height / factor) * factor);
  let wBar = Math.max(factor, roundHalfEven(width / factor) * factor);
  if (hBar * wBar > maxPixels) {
    const beta = Math.sqrt((height * width) / maxPixels);
    // max(factor, …) as in current qwen-vl-utils; unreachable with the default limits.
    hBar = Math.max(factor, Math.floor(height / beta / factor) * factor);
    wBar = Math.max(factor, Math.floor(width / beta / factor) * factor);
  } else if (hBar * wBar < minPixels) {
    const beta = Math.sqrt(minPixels / (height * width));
    hBar = Math.ceil((height * beta) / factor) * factor;
    wBar = Math.ceil((width * beta) / factor) * factor;
  }
  return { width: wBar, height: hBar };
}
