// Separable resampling in plain JS for the pure-JS codec: Lanczos-3 for the model's screenshots,
// a box filter (area average) for the pixel-diff reduction. Filters widen by the scale factor when
// shrinking, so a reduction averages every source pixel (no aliasing), as libvips does.
import type { RawImage } from './image-codec.js';

export type ResampleKernel = 'lanczos3' | 'box';

interface Filter {
  support: number;
  weight(x: number): number;
}

function sinc(x: number): number {
  if (x === 0) return 1;
  const y = Math.PI * x;
  return Math.sin(y) / y;
}

const FILTERS: Record<ResampleKernel, Filter> = {
  lanczos3: { support: 3, weight: (x) => (Math.abs(x) < 3 ? sinc(x) * sinc(x / 3) : 0) },
  box: { support: 0.5, weight: (x) => (x >= -0.5 && x < 0.5 ? 1 : 0) },
};

interface Taps {
  start: Int32Array;
  count: Int32Array;
  stride: number;
  /** Fixed point, 1 << 14 = 1.0. */
  weights: Int32Array;
}

const ONE = 1 << 14;

function taps(inSize: number, outSize: number, filter: Filter): Taps {
  const scale = inSize / outSize;
  const widen = Math.max(scale, 1);
  const support = filter.support * widen;
  const stride = Math.ceil(support) * 2 + 2;
  const start = new Int32Array(outSize);
  const count = new Int32Array(outSize);
  const weights = new Int32Array(outSize * stride);
  const row = new Float64Array(stride);
  for (let out = 0; out < outSize; out++) {
    const center = (out + 0.5) * scale;
    const low = Math.max(0, Math.floor(center - support + 0.5));
    const high = Math.min(inSize, Math.floor(center + support + 0.5));
    let total = 0;
    for (let i = low; i < high; i++) {
      const w = filter.weight((i + 0.5 - center) / widen);
      row[i - low] = w;
      total += w;
    }
    start[out] = low;
    count[out] = high - low;
    for (let i = 0; i < high - low; i++) {
      weights[out * stride + i] = Math.round(((row[i] as number) / (total || 1)) * ONE);
    }
  }
  return { start, count, stride, weights };
}

function clamp(value: number): number {
  const v = (value + ONE / 2) >> 14;
  return v < 0 ? 0 : Math.min(v, 255);
}

/** Resizes `image` to `width × height` with `kernel`; the channel count is kept. */
export function resample(
  image: RawImage,
  width: number,
  height: number,
  kernel: ResampleKernel,
): RawImage {
  const filter = FILTERS[kernel];
  const across =
    width === image.width ? null : horizontal(image, width, taps(image.width, width, filter));
  const middle = across ?? image;
  if (height === image.height) return middle;
  return vertical(middle, height, taps(image.height, height, filter));
}

/** One row at a time, all channels of a pixel per tap. */
function horizontal(image: RawImage, width: number, t: Taps): RawImage {
  const c = image.channels;
  const source = image.data;
  const data = new Uint8Array(width * image.height * c);
  for (let y = 0; y < image.height; y++) {
    const rowIn = y * image.width * c;
    let out = y * width * c;
    for (let x = 0; x < width; x++) {
      const n = t.count[x] as number;
      const base = x * t.stride;
      let at = rowIn + (t.start[x] as number) * c;
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let k = 0; k < n; k++, at += c) {
        const w = t.weights[base + k] as number;
        r += (source[at] as number) * w;
        g += (source[at + 1] as number) * w;
        b += (source[at + 2] as number) * w;
        if (c === 4) a += (source[at + 3] as number) * w;
      }
      data[out++] = clamp(r);
      data[out++] = clamp(g);
      data[out++] = clamp(b);
      if (c === 4) data[out++] = clamp(a);
    }
  }
  return { width, height: image.height, channels: c, data };
}

/** Whole rows at a time: each output row is a weighted sum of source rows (cache friendly). */
function vertical(image: RawImage, height: number, t: Taps): RawImage {
  const rowBytes = image.width * image.channels;
  const source = image.data;
  const data = new Uint8Array(rowBytes * height);
  const sums = new Int32Array(rowBytes);
  for (let y = 0; y < height; y++) {
    sums.fill(0);
    const first = t.start[y] as number;
    const n = t.count[y] as number;
    for (let k = 0; k < n; k++) {
      const w = t.weights[y * t.stride + k] as number;
      if (w === 0) continue;
      const from = (first + k) * rowBytes;
      for (let i = 0; i < rowBytes; i++)
        sums[i] = (sums[i] as number) + (source[from + i] as number) * w;
    }
    const to = y * rowBytes;
    for (let i = 0; i < rowBytes; i++) data[to + i] = clamp(sums[i] as number);
  }
  return { width: image.width, height, channels: image.channels, data };
}

/** The same pixels with `channels` bytes each (alpha dropped, or opaque alpha added). */
export function withChannels(image: RawImage, channels: 3 | 4): RawImage {
  if (image.channels === channels) return image;
  const pixels = image.width * image.height;
  const data = new Uint8Array(pixels * channels);
  const from = image.data;
  for (let p = 0, i = 0, o = 0; p < pixels; p++, i += image.channels, o += channels) {
    data[o] = from[i] as number;
    data[o + 1] = from[i + 1] as number;
    data[o + 2] = from[i + 2] as number;
    if (channels === 4) data[o + 3] = 255;
  }
  return { width: image.width, height: image.height, channels, data };
}
