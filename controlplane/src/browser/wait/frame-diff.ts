// The pixel-diff gate: frames are reduced to small RGB thumbnails (area-averaged, one cell per
// `scale × scale` pixels) and compared cell by cell. A per-cell threshold, not a global "% of
// pixels changed", keeps small changes visible: a 16×16 status icon on a 1920×1080 screen is
// 0.01 % of the pixels but still fully covers at least one 8×8 cell (docs/waits.md).
import type { ImageCodec } from '@clawdie/kit/images';

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

/**
 * Decodes a JPEG/PNG into a thumbnail with the process's image codec: sharp decodes a JPEG at 1/8
 * scale (libjpeg's shrink-on-load) off the main thread; the pure-JS fallback decodes it whole
 * (docs/performance.md, "Smart wait").
 */
export async function thumbnailOfImage(
  image: Buffer,
  codec: ImageCodec,
  cellSize = DEFAULT_CELL_SIZE,
): Promise<Thumbnail> {
  return toThumbnail(await codec.reduce(image, cellSize));
}

function toThumbnail(reduced: Awaited<ReturnType<ImageCodec['reduce']>>): Thumbnail {
  const { image, sourceWidth, sourceHeight } = reduced;
  return { width: image.width, height: image.height, sourceWidth, sourceHeight, data: image.data };
}

/** Compares two thumbnails. Different geometry counts as a full change. O(cells). */
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
  // Screens change in small areas: compare 4 cells (12 bytes = 3 words) at a time and only look
  // at the cells of groups that differ.
  const aligned = x.byteOffset % 4 === 0 && y.byteOffset % 4 === 0;
  const groups = aligned ? Math.floor(x.length / 12) : 0;
  const xw = aligned ? new Uint32Array(x.buffer, x.byteOffset, groups * 3) : new Uint32Array(0);
  const yw = aligned ? new Uint32Array(y.buffer, y.byteOffset, groups * 3) : xw;
  for (let g = 0, w = 0; g <= groups; g++, w += 3) {
    if (g < groups && xw[w] === yw[w] && xw[w + 1] === yw[w + 1] && xw[w + 2] === yw[w + 2]) {
      continue;
    }
    const end = g < groups ? (g + 1) * 12 : x.length; // the last pass takes the remainder
    for (let i = g < groups ? g * 12 : groups * 12; i < end; i += 3) {
      const d0 = Math.abs((x[i] as number) - (y[i] as number));
      const d1 = Math.abs((x[i + 1] as number) - (y[i + 1] as number));
      const d2 = Math.abs((x[i + 2] as number) - (y[i + 2] as number));
      const d = Math.max(d0, d1, d2);
      total += d0 + d1 + d2;
      if (d > maxDelta) maxDelta = d;
      if (d > threshold) changedCells += 1;
    }
  }
  return {
    changed: changedCells >= minChanged,
    changedCells,
    maxDelta,
    meanDelta: x.length === 0 ? 0 : total / x.length,
  };
}
