// Huffman tables and the bit buffer for the DC-only JPEG decoder (jpeg-dc.ts). Codes of up to
// LOOK bits decode with one table lookup; longer ones use the canonical decode of JPEG Annex F.

export const LOOK = 12;
export const LOOK_MASK = (1 << LOOK) - 1;

export interface Huffman {
  /**
   * DC tables: `length << 8 | symbol`. AC tables: `(length + size) | advance << 5 | size << 12 |
   * length << 16`, where `advance` is how far the symbol moves along the 64 coefficients (a run
   * and the coefficient itself, 16 for a zero run, 64 for end-of-block). 0: a code over LOOK bits.
   */
  lut: Int32Array;
  /**
   * AC tables only: as many whole symbols as fit in LOOK bits, for skipping coefficients:
   * `bits | advance << 5 | endOfBlock << 12`, where `advance` excludes an end-of-block; 0: none fit.
   */
  skip: Int32Array;
  ac: boolean;
  maxCode: Int32Array;
  valOffset: Int32Array;
  symbols: Uint8Array;
}

export class JpegDataError extends Error {}

export function buildHuffman(counts: Uint8Array, symbols: Uint8Array, ac: boolean): Huffman {
  const lut = new Int32Array(1 << LOOK);
  const maxCode = new Int32Array(17).fill(-1);
  const valOffset = new Int32Array(17);
  let code = 0;
  let k = 0;
  for (let length = 1; length <= 16; length++) {
    const n = counts[length - 1] as number;
    valOffset[length] = k - code;
    for (let i = 0; i < n; i++, k++, code++) {
      if (length > LOOK) continue;
      const shift = LOOK - length;
      lut.fill(entry(length, symbols[k] ?? 0, ac), code << shift, (code + 1) << shift);
    }
    if (n > 0) maxCode[length] = code - 1;
    code <<= 1;
  }
  const skip = new Int32Array(ac ? 1 << LOOK : 0).fill(UNKNOWN);
  return { lut, skip, ac, maxCode, valOffset, symbols };
}

/** Marks a lazily filled table entry not computed yet (never a valid entry). */
export const UNKNOWN = 1 << 30;

/** The `skip` entry for lookahead bits `i`; tables fill lazily: a frame uses few patterns. */
export function skipEntry(lut: Int32Array, i: number): number {
  let used = 0;
  let advance = 0;
  let ended = 0;
  while (used < LOOK) {
    const e = lut[(i << used) & LOOK_MASK] as number;
    if (e === 0 || used + (e & 31) > LOOK || ((e >> 16) & 31) > LOOK - used) break;
    used += e & 31;
    if (((e >> 5) & 127) === 64) {
      ended = 1;
      break;
    }
    advance += (e >> 5) & 127;
  }
  return used === 0 ? 0 : used | (advance << 5) | (ended << 12);
}

function entry(length: number, symbol: number, ac: boolean): number {
  if (!ac) return (length << 8) | symbol;
  const run = symbol >> 4;
  const size = symbol & 15;
  const advance = size !== 0 ? run + 1 : run === 15 ? 16 : 64;
  return (length + size) | (advance << 5) | (size << 12) | (length << 16);
}

/**
 * One lookup for the start of a block: the DC code, its magnitude bits and, when they follow
 * within LOOK bits, an end-of-block code (a flat block, most of a UI screen). Entries:
 * `bitsConsumed | blockEnded << 5 | dcDifference << 8`; 0 when the DC part is over LOOK bits.
 * Filled lazily, like `skip`: start from `new Int32Array(1 << LOOK).fill(UNKNOWN)`.
 */
export function blockStartEntry(dc: Huffman, ac: Huffman, i: number): number {
  const e = dc.lut[i] as number;
  const length = e >> 8;
  const size = e & 255;
  if (e === 0 || size > 11 || length + size > LOOK) return 0;
  let used = length + size;
  const magnitude = (i >> (LOOK - used)) & ((1 << size) - 1);
  const difference = size === 0 ? 0 : extend(magnitude, size);
  const next = ac.lut[(i << used) & LOOK_MASK] as number;
  const ended = next !== 0 && ((next >> 5) & 127) === 64 && (next & 31) <= LOOK - used;
  if (ended) used += next & 31;
  return used | (ended ? 32 : 0) | (difference << 8);
}

/** Decodes a code longer than LOOK bits into its lookup-table entry. */
export function slowCode(table: Huffman, acc: number, bits: number): number {
  for (let length = LOOK + 1; length <= 16; length++) {
    const code = (acc >>> (bits - length)) & ((1 << length) - 1);
    if (code <= (table.maxCode[length] as number)) {
      const symbol = table.symbols[code + (table.valOffset[length] as number)];
      if (symbol === undefined) break;
      return entry(length, symbol, table.ac);
    }
  }
  throw new JpegDataError('bad Huffman code');
}

/** Entropy-coded bytes read into a 32-bit buffer; byte stuffing removed, zeros past a marker. */
export interface Bits {
  pos: number;
  acc: number;
  bits: number;
}

/** Tops the buffer up to more than 24 bits (the scan loop inlines the same loop). */
export function refill(data: Uint8Array, s: Bits): void {
  while (s.bits <= 24) {
    let b = 0;
    if (s.pos < data.length) {
      b = data[s.pos] as number;
      if (b !== 0xff) s.pos++;
      else if (data[s.pos + 1] === 0) s.pos += 2;
      else b = 0;
    }
    s.acc = (s.acc << 8) | b;
    s.bits += 8;
  }
}

/** Sign-extends a `size`-bit magnitude category value (JPEG F.2.2.1 EXTEND). */
export function extend(value: number, size: number): number {
  return value < 1 << (size - 1) ? value - (1 << size) + 1 : value;
}
