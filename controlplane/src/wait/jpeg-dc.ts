// DC-only JPEG decoding for the wait gate. A block's DC coefficient is its mean, so the DC values
// alone are the frame downsampled by 8: what libjpeg's 1/8-scale decode (sharp's shrink-on-load)
// computes. Doing it in JS skips sharp's pipeline setup, threadpool hop and per-strip bookkeeping,
// which cost more than the entropy decoding itself (docs/performance.md, "Smart wait").
// Baseline Huffman JPEGs with 1 or 3 components (what Chrome and sharp write) only; for anything
// else decodeJpegDc returns null and the caller uses sharp.
import { buildHuffman, type Huffman } from './jpeg-huffman.js';
import { type CellPlanes, decodeScan, type ScanComponent } from './jpeg-scan.js';
import { jpegSegments } from './jpeg-segments.js';

/** One RGB cell per 8×8 block, row-major: `ceil(sourceWidth / 8) × ceil(sourceHeight / 8)`. */
export interface DcImage {
  width: number;
  height: number;
  sourceWidth: number;
  sourceHeight: number;
  data: Uint8Array;
}

interface FrameComponent {
  id: number;
  h: number;
  v: number;
  table: number;
}

/** The frame reduced to one RGB cell per 8×8 block, or null when not a baseline Huffman JPEG. */
export function decodeJpegDc(jpeg: Uint8Array): DcImage | null {
  try {
    return decode(jpeg);
  } catch {
    return null; // corrupt: let the general decoder make what it can of it
  }
}

function decode(data: Uint8Array): DcImage | null {
  const quant: Int32Array[] = [];
  const tables = new Map<number, Huffman>();
  let frame: FrameComponent[] = [];
  let width = 0;
  let height = 0;
  let restart = 0;
  for (const { marker, body, end } of jpegSegments(data)) {
    if (marker === 0xdb) {
      for (let p = body; p < end; ) {
        const wide = (data[p] as number) >> 4;
        const values = new Int32Array(64);
        for (let k = 0; k < 64; k++) {
          values[k] = wide ? u16(data, p + 1 + 2 * k) : (data[p + 1 + k] as number);
        }
        quant[(data[p] as number) & 3] = values;
        p += 1 + 64 * (wide + 1);
      }
    } else if (marker === 0xc4) {
      for (let p = body; p + 17 <= end; ) {
        const counts = data.subarray(p + 1, p + 17);
        const total = counts.reduce((sum, n) => sum + n, 0);
        const symbols = data.subarray(p + 17, p + 17 + total);
        const ac = (data[p] as number) >> 4 === 1;
        tables.set((data[p] as number) & 0x13, buildHuffman(counts, symbols, ac));
        p += 17 + total;
      }
    } else if (marker === 0xc0 || marker === 0xc1) {
      height = u16(data, body + 1);
      width = u16(data, body + 3);
      const count = data[body + 5] as number;
      if (data[body] !== 8 || !height || !width || (count !== 1 && count !== 3)) return null;
      frame = Array.from({ length: count }, (_, i) => {
        const factors = data[body + 7 + i * 3] as number;
        return {
          id: data[body + 6 + i * 3] as number,
          h: count === 1 ? 1 : factors >> 4,
          v: count === 1 ? 1 : factors & 15,
          table: (data[body + 8 + i * 3] as number) & 3,
        };
      });
      if (frame.some((c) => c.h < 1 || c.h > 4 || c.v < 1 || c.v > 4)) return null;
    } else if (marker === 0xdd) {
      restart = u16(data, body);
    } else if (marker === 0xee) {
      if (end - body >= 12 && data[body + 11] === 0) return null; // Adobe: RGB, not YCbCr
    } else if (marker === 0xda) {
      return scan(data, body, end, frame, { quant, tables, width, height, restart });
    } else if ((marker >= 0xc2 && marker <= 0xcf) || marker === 0xd9) {
      return null; // progressive, lossless, arithmetic-coded, or no image
    }
  }
  return null;
}

function u16(data: Uint8Array, at: number): number {
  return ((data[at] as number) << 8) | (data[at + 1] as number);
}

interface Headers {
  quant: Int32Array[];
  tables: Map<number, Huffman>;
  width: number;
  height: number;
  restart: number;
}

function scan(
  data: Uint8Array,
  body: number,
  end: number,
  frame: FrameComponent[],
  headers: Headers,
): DcImage | null {
  const { width, height } = headers;
  if (frame.length === 0 || data[body] !== frame.length) return null; // one scan, all components
  const hMax = Math.max(...frame.map((c) => c.h));
  const vMax = Math.max(...frame.map((c) => c.v));
  // A single-component scan is not interleaved: one block per "MCU", no padding to the MCU.
  const mcus = { mcusX: Math.ceil(width / (8 * hMax)), mcusY: Math.ceil(height / (8 * vMax)) };
  const components: ScanComponent[] = [];
  for (let i = 0; i < frame.length; i++) {
    const f = frame[i] as FrameComponent;
    const selectors = data[body + 2 + i * 2] as number;
    const dc = headers.tables.get(selectors >> 4);
    const ac = headers.tables.get(0x10 | (selectors & 15));
    const quant = headers.quant[f.table];
    if (data[body + 1 + i * 2] !== f.id || !dc || !ac || !quant) return null;
    // Chroma at most halved per axis (4:2:0, 4:2:2, 4:4:4...): its blocks then cover whole cells.
    // Rarer subsamplings (4:1:1) go to sharp.
    if ((hMax !== f.h && hMax !== 2 * f.h) || (vMax !== f.v && vMax !== 2 * f.v)) return null;
    components.push({ dc, ac, h: f.h, v: f.v, quant });
  }
  const layout = { ...mcus, hMax, vMax, restartInterval: headers.restart };
  return toRgb(decodeScan(data, end, components, layout), components.length, width, height);
}

// libjpeg's YCbCr → RGB tables (BT.601 full range, 16-bit fixed point).
const table = (f: (x: number) => number) => Int32Array.from({ length: 256 }, (_, i) => f(i - 128));
const CR_R = table((x) => Math.round(1.402 * x));
const CB_B = table((x) => Math.round(1.772 * x));
const CB_G = table((x) => -Math.round(0.34414 * 65536) * x + 32768);
const CR_G = table((x) => -Math.round(0.71414 * 65536) * x);
/** Clamps `value + 384` to 0–255 (cheaper than a Uint8ClampedArray store). */
const CLAMP = Uint8Array.from({ length: 1024 }, (_, i) => Math.max(0, Math.min(255, i - 384)));

/** One RGB cell per 8×8 pixels from the cell planes (Y, or Y, Cb and Cr). */
function toRgb(cells: CellPlanes, count: number, width: number, height: number): DcImage {
  const cellsX = Math.ceil(width / 8);
  const cellsY = Math.ceil(height / 8);
  const out = new Uint8Array(cellsX * cellsY * 3);
  const { planes: y, stride, size } = cells;
  if (count === 1) {
    for (let row = 0, o = 0; row < cellsY; row++) {
      for (let x = 0, c = row * stride; x < cellsX; x++, o += 3, c++) {
        out[o] = out[o + 1] = out[o + 2] = y[c] as number;
      }
    }
    return { width: cellsX, height: cellsY, sourceWidth: width, sourceHeight: height, data: out };
  }
  const cb = y.subarray(size);
  const cr = y.subarray(2 * size);
  const [crR, cbB, cbG, crG, clamp] = [CR_R, CB_B, CB_G, CR_G, CLAMP]; // locals: faster than module bindings
  for (let row = 0, o = 0; row < cellsY; row++) {
    let last = -1;
    for (let x = 0, c = row * stride; x < cellsX; x++, o += 3, c++) {
      const l = y[c] as number;
      const u = cb[c] as number;
      const v = cr[c] as number;
      const key = (l << 16) | (u << 8) | v;
      if (key === last) {
        // Screens are mostly flat: a cell like its left neighbour copies its colour.
        out[o] = out[o - 3] as number;
        out[o + 1] = out[o - 2] as number;
        out[o + 2] = out[o - 1] as number;
        continue;
      }
      last = key;
      out[o] = clamp[l + 384 + (crR[v] as number)] as number;
      out[o + 1] = clamp[l + 384 + (((cbG[u] as number) + (crG[v] as number)) >> 16)] as number;
      out[o + 2] = clamp[l + 384 + (cbB[u] as number)] as number;
    }
  }
  return { width: cellsX, height: cellsY, sourceWidth: width, sourceHeight: height, data: out };
}
