// The entropy-decoding loop of the DC-only JPEG decoder (jpeg-dc.ts). It yields one sample per
// 8×8 pixel cell for every component. A full-resolution component (luma) has one cell per block:
// the block's DC, its AC coefficients skipped without computing their values. A halved component
// (chroma in 4:2:0) has 2 cells per block along each halved axis, the means of the block's halves
// from the few coefficients they depend on, as libjpeg's 1/8-scale decode (its 2×2 reduced IDCT).
// The hot loop reads only typed arrays and locals: the per-component tables are laid end to end.
import {
  type Bits,
  blockStartEntry,
  extend,
  type Huffman,
  JpegDataError,
  LOOK,
  LOOK_MASK,
  refill,
  skipEntry,
  slowCode,
  UNKNOWN,
} from './jpeg-huffman.js';
import { quadrantWeights } from './jpeg-quadrants.js';

export interface ScanComponent {
  dc: Huffman;
  ac: Huffman;
  /** Blocks per MCU, horizontally and vertically: the maximum or half of it. */
  h: number;
  v: number;
  /** Quantisation table in zig-zag order. */
  quant: Int32Array;
}

export interface ScanLayout {
  mcusX: number;
  mcusY: number;
  hMax: number;
  vMax: number;
  restartInterval: number;
}

/** One plane of cells per component, `stride` cells a row, `size` apart in `planes`. */
export interface CellPlanes {
  planes: Uint8Array;
  stride: number;
  size: number;
}

export function decodeScan(
  data: Uint8Array,
  start: number,
  components: ScanComponent[],
  layout: ScanLayout,
): CellPlanes {
  const { mcusX, mcusY, hMax, vMax, restartInterval } = layout;
  const stride = mcusX * hMax;
  const size = stride * mcusY * vMax;
  const planes = new Uint8Array(size * components.length);
  const count = components.length;
  // Per component (index ci): lookup tables at ci << LOOK, quadrant weights at ci * 256.
  const blockStarts = new Int32Array(count << LOOK).fill(UNKNOWN);
  const acLuts = new Int32Array(count << LOOK);
  const acSkips = new Int32Array(count << LOOK).fill(UNKNOWN);
  const weights = new Float64Array(count * 256);
  const dcQuants = new Int32Array(count);
  // Per block of an MCU (index s): its component, cell offset, cells per block across and down.
  const slots = components.reduce((n, c) => n + c.h * c.v, 0);
  const slotComponent = new Int32Array(slots);
  const slotOffset = new Int32Array(slots);
  const slotNx = new Int32Array(slots);
  const slotNy = new Int32Array(slots);
  for (let ci = 0, s = 0; ci < count; ci++) {
    const c = components[ci] as ScanComponent;
    const nx = hMax / c.h;
    const ny = vMax / c.v;
    acLuts.set(c.ac.lut, ci << LOOK);
    dcQuants[ci] = c.quant[0] as number;
    quadrantWeights(c.quant, nx, ny, weights.subarray(ci * 256, ci * 256 + 256));
    for (let v = 0; v < c.v; v++) {
      for (let h = 0; h < c.h; h++, s++) {
        slotComponent[s] = ci;
        slotOffset[s] = ci * size + v * ny * stride + h * nx;
        slotNx[s] = nx;
        slotNy[s] = ny;
      }
    }
  }
  const preds = new Int32Array(count);
  const end = data.length;
  const state: Bits = { pos: start, acc: 0, bits: 0 };
  // Module bindings are slower to read in the hot loop than locals.
  const look = LOOK;
  const lookMask = LOOK_MASK;
  const unknown = UNKNOWN;
  let pos = start;
  let acc = 0;
  let bits = 0;
  let untilRestart = restartInterval;
  for (let my = 0; my < mcusY; my++) {
    for (let mx = 0; mx < mcusX; mx++) {
      if (restartInterval > 0 && untilRestart-- === 0) {
        untilRestart = restartInterval - 1;
        acc = 0;
        bits = 0;
        preds.fill(0);
        while (
          pos + 1 < end &&
          !(data[pos] === 0xff && ((data[pos + 1] as number) & 0xf8) === 0xd0)
        )
          pos++;
        pos += 2;
      }
      const mcuCell = my * vMax * stride + mx * hMax;
      for (let s = 0; s < slots; s++) {
        const ci = slotComponent[s] as number;
        const table = ci << look;
        while (bits <= 24) {
          let b = 0;
          if (pos < end) {
            b = data[pos] as number;
            if (b !== 0xff) pos++;
            else if (data[pos + 1] === 0) pos += 2;
            else b = 0; // a marker: feed zeros and stay put
          }
          acc = (acc << 8) | b;
          bits += 8;
        }
        const peek = (acc >>> (bits - look)) & lookMask;
        let first = blockStarts[table + peek] as number;
        if (first === unknown) {
          const c = components[ci] as ScanComponent;
          first = blockStarts[table + peek] = blockStartEntry(c.dc, c.ac, peek);
        }
        let k = 1;
        let pred = preds[ci] as number;
        if (first !== 0) {
          bits -= first & 31;
          pred += first >> 8;
          if ((first & 32) !== 0) k = 64;
        } else {
          const dc = (components[ci] as ScanComponent).dc;
          let e = dc.lut[peek] as number;
          if (e !== 0) bits -= e >> 8;
          else {
            e = slowCode(dc, acc, bits);
            state.pos = pos;
            state.acc = acc;
            state.bits = bits - (e >> 8);
            refill(data, state);
            ({ pos, acc, bits } = state);
          }
          const size = e & 255;
          if (size > 11) throw new JpegDataError('bad DC size');
          if (size !== 0) {
            pred += extend((acc >>> (bits - size)) & ((1 << size) - 1), size);
            bits -= size;
          }
        }
        preds[ci] = pred;
        // libjpeg's 1×1 IDCT: dequantise, descale by 8, level-shift, clamp.
        const mean = Math.max(0, Math.min(255, ((pred * (dcQuants[ci] as number) + 4) >> 3) + 128));
        const out = mcuCell + (slotOffset[s] as number);
        const nx = slotNx[s] as number;
        const ny = slotNy[s] as number;
        if (nx === 1 && ny === 1) {
          planes[out] = mean;
          while (k < 64) {
            while (bits <= 24) {
              let b = 0;
              if (pos < end) {
                b = data[pos] as number;
                if (b !== 0xff) pos++;
                else if (data[pos + 1] === 0) pos += 2;
                else b = 0;
              }
              acc = (acc << 8) | b;
              bits += 8;
            }
            const peekAc = (acc >>> (bits - look)) & lookMask;
            // Several symbols at once, unless they might run past the block's end.
            let many = acSkips[table + peekAc] as number;
            if (many === unknown) {
              many = acSkips[table + peekAc] = skipEntry(
                (components[ci] as ScanComponent).ac.lut,
                peekAc,
              );
            }
            if (many !== 0 && k + ((many >> 5) & 127) < 64) {
              bits -= many & 31;
              k = many & 4096 ? 64 : k + ((many >> 5) & 127);
              continue;
            }
            let a = acLuts[table + peekAc] as number;
            if (a !== 0) bits -= a & 31;
            else {
              a = slowCode((components[ci] as ScanComponent).ac, acc, bits);
              state.pos = pos;
              state.acc = acc;
              state.bits = bits - ((a >> 16) & 31);
              refill(data, state);
              ({ pos, acc, bits } = state);
              bits -= (a >> 12) & 15;
            }
            k += (a >> 5) & 127;
          }
          continue;
        }
        if (k === 64) {
          // A flat block: all its cells have its mean.
          planes[out] = mean;
          if (nx > 1) planes[out + 1] = mean;
          if (ny > 1) planes[out + stride] = mean;
          if (nx > 1 && ny > 1) planes[out + stride + 1] = mean;
          continue;
        }
        let s0 = (pred * (dcQuants[ci] as number)) / 8;
        let s1 = s0;
        let s2 = s0;
        let s3 = s0;
        const w = ci * 256;
        while (k < 64) {
          while (bits <= 24) {
            let b = 0;
            if (pos < end) {
              b = data[pos] as number;
              if (b !== 0xff) pos++;
              else if (data[pos + 1] === 0) pos += 2;
              else b = 0;
            }
            acc = (acc << 8) | b;
            bits += 8;
          }
          let a = acLuts[table + ((acc >>> (bits - look)) & lookMask)] as number;
          if (a !== 0) bits -= (a >> 16) & 31;
          else {
            a = slowCode((components[ci] as ScanComponent).ac, acc, bits);
            state.pos = pos;
            state.acc = acc;
            state.bits = bits - ((a >> 16) & 31);
            refill(data, state);
            ({ pos, acc, bits } = state);
          }
          const acSize = (a >> 12) & 15;
          k += (a >> 5) & 127;
          if (acSize === 0) continue;
          const value = extend((acc >>> (bits - acSize)) & ((1 << acSize) - 1), acSize);
          bits -= acSize;
          const at = k - 1;
          if (at > 63) continue; // a run past the block: corrupt, ignored as libjpeg does
          s0 += value * (weights[w + at] as number);
          s1 += value * (weights[w + 64 + at] as number);
          s2 += value * (weights[w + 128 + at] as number);
          s3 += value * (weights[w + 192 + at] as number);
        }
        planes[out] = sample(s0);
        if (nx > 1) planes[out + 1] = sample(s1);
        if (ny > 1) planes[out + stride] = sample(s2);
        if (nx > 1 && ny > 1) planes[out + stride + 1] = sample(s3);
      }
    }
  }
  return { planes, stride, size };
}

/** A level-shifted, rounded and clamped sample. */
function sample(value: number): number {
  return Math.max(0, Math.min(255, Math.round(value) + 128));
}
