// The pixel-diff gate: frames are reduced to small RGB thumbnails (area-averaged, one cell per
// `scale × scale` pixels) and compared cell by cell. A per-cell threshold, not a global "% of
// pixels changed", keeps small changes visible: a 16×16 status icon on a 1920×1080 screen is
// 0.01 % of the pixels but still fully covers at least one 8×8 cell (docs/waits.md).
import sharp, { type Sharp } from 'sharp';

/** A downsampled frame: `width × height` cells of 3 bytes (RGB), row-major. */
export interface Thumbnail {
  width: number;
  height: number;
  /** Size of the source frame, so frames of different sizes never compare equal. */
  sourceWidth: number;
  sourceHeight: number;
  data: Uint8Array;
}

export interface DiffOptions {
  /** A cell counts as changed when one channel moved by more than this (0–255); default 24. */
  cellThreshold?: number;
  /** Frames differ when at least this many cells changed; default 1 (small-change sensitive). */
  minChangedCells?: number;
}

export interface FrameDiff {
  changed: boolean;
  changedCells: number;
  /** Largest channel delta of any cell. */
  maxDelta: number;
  /** Mean absolute channel delta over all cells. */
  meanDelta: number;
}

/** Default downsampling factor: 8 px per cell side (1920×1080 → 240×135). */
export const DEFAULT_CELL_SIZE = 8;

/** Decodes a JPEG/PNG into a thumbnail. JPEG decoding uses libjpeg's scaled decode, so it is cheap. */
export async function thumbnailOfImage(
  image: Buffer,
  cellSize = DEFAULT_CELL_SIZE,
): Promise<Thumbnail> {
  const decoder = sharp(image, { failOn: 'none' });
  const meta = await decoder.metadata();
  const sourceWidth = meta.width ?? 1;
  const sourceHeight = meta.height ?? 1;
  return reduce(decoder, sourceWidth, sourceHeight, cellSize);
}

/** Reduces raw pixels (RGB or RGBA/BGRX-free RGBA) into a thumbnail. */
export async function thumbnailOfRaw(
  raw: Buffer,
  geometry: { width: number; height: number; channels: 3 | 4 },
  cellSize = DEFAULT_CELL_SIZE,
): Promise<Thumbnail> {
  const input = sharp(raw, { raw: geometry });
  return reduce(input, geometry.width, geometry.height, cellSize);
}

async function reduce(
  input: Sharp,
  sourceWidth: number,
  sourceHeight: number,
  cellSize: number,
): Promise<Thumbnail> {
  const width = Math.max(1, Math.round(sourceWidth / cellSize));
  const height = Math.max(1, Math.round(sourceHeight / cellSize));
  const { data } = await input
    .resize(width, height, { fit: 'fill', kernel: 'linear', fastShrinkOnLoad: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width, height, sourceWidth, sourceHeight, data: new Uint8Array(data) };
}

/** Compares two thumbnails. Different geometry counts as a full change. O(cells), no allocation. */
export function diffThumbnails(a: Thumbnail, b: Thumbnail, options: DiffOptions = {}): FrameDiff {
  const threshold = options.cellThreshold ?? 24;
  const minChanged = options.minChangedCells ?? 1;
  const cells = a.width * a.height;
  if (
    a.width !== b.width ||
    a.height !== b.height ||
    a.sourceWidth !== b.sourceWidth ||
    a.sourceHeight !== b.sourceHeight
  ) {
    return {
      changed: true,
      changedCells: Math.max(cells, b.width * b.height),
      maxDelta: 255,
      meanDelta: 255,
    };
  }
  const x = a.data;
  const y = b.data;
  let changedCells = 0;
  let maxDelta = 0;
  let total = 0;
  for (let i = 0; i < x.length; i += 3) {
    const d0 = Math.abs((x[i] as number) - (y[i] as number));
    const d1 = Math.abs((x[i + 1] as number) - (y[i + 1] as number));
    const d2 = Math.abs((x[i + 2] as number) - (y[i + 2] as number));
    const d = Math.max(d0, d1, d2);
    total += d0 + d1 + d2;
    if (d > maxDelta) maxDelta = d;
    if (d > threshold) changedCells += 1;
  }
  return {
    changed: changedCells >= minChanged,
    changedCells,
    maxDelta,
    meanDelta: x.length === 0 ? 0 : total / x.length,
  };
}
