import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  diffThumbnails,
  type Thumbnail,
} from '../../../../controlplane/src/browser/wait/frame-diff.js';

/** The plain cell-by-cell comparison the word-at-a-time diff must agree with. */
function reference(a: Thumbnail, b: Thumbnail, threshold = 24) {
  let changedCells = 0;
  let maxDelta = 0;
  let total = 0;
  for (let i = 0; i < a.data.length; i += 3) {
    const deltas = [0, 1, 2].map((k) => Math.abs((a.data[i + k] ?? 0) - (b.data[i + k] ?? 0)));
    const d = Math.max(...deltas);
    total += deltas.reduce((sum, delta) => sum + delta, 0);
    maxDelta = Math.max(maxDelta, d);
    if (d > threshold) changedCells += 1;
  }
  return { changed: changedCells >= 1, changedCells, maxDelta, meanDelta: total / a.data.length };
}

function thumbnail(width: number, height: number, data: Uint8Array): Thumbnail {
  return { width, height, sourceWidth: width * 8, sourceHeight: height * 8, data };
}

/** Deterministic pseudo-random bytes. */
function bytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

describe('thumbnail diff', () => {
  it('agrees with a cell-by-cell comparison: equal, small changes, noise, odd sizes, unaligned', () => {
    for (const [width, height] of [
      [240, 135],
      [171, 96],
      [7, 3],
      [1, 1],
    ] as const) {
      const size = width * height * 3;
      const base = bytes(size, width);
      const changes = [
        base.slice(),
        (() => {
          const c = base.slice();
          c[size - 1] = ((c[size - 1] as number) + 100) % 256; // the very last channel
          c[0] = ((c[0] as number) + 10) % 256; // under the threshold
          return c;
        })(),
        bytes(size, width + 1),
      ];
      for (const data of changes) {
        // An odd byte offset takes the unaligned path.
        const shifted = new Uint8Array(size + 1).subarray(1);
        shifted.set(data);
        for (const other of [data, shifted]) {
          const a = thumbnail(width, height, base);
          const b = thumbnail(width, height, other);
          assert.deepEqual(diffThumbnails(a, b), reference(a, b), `${width}×${height}`);
        }
      }
    }
  });
});
