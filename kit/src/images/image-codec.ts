// The image codec port: what Clawdie's image paths need from an image library (the model's
// screenshot encode, the wait judge's thumbnails, the pixel-diff reduction, the desktop surface's
// JPEG encode). Two adapters: sharp (libvips, native or WebAssembly) and a pure-JS one (jpeg-js,
// pngjs), so a host where sharp cannot be loaded still runs every image path. Selection:
// select-codec.ts, `CLAWDIE_IMAGE_ENCODER=auto|sharp|js`.

/** `CLAWDIE_IMAGE_ENCODER`: sharp when it loads (auto), sharp or fail, or always pure JS. */
export const IMAGE_ENCODER_MODES = ['auto', 'sharp', 'js'] as const;
export type ImageEncoderMode = (typeof IMAGE_ENCODER_MODES)[number];

/** Formats `ImageCodec.resize` can write (the model's screenshots: CLAWDIE_MODEL_IMAGE_FORMAT). */
export const IMAGE_FORMATS = ['jpeg', 'webp', 'png'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** Decoded pixels, row-major, `channels` bytes per pixel (RGB or RGBA). */
export interface RawImage {
  width: number;
  height: number;
  channels: 3 | 4;
  data: Uint8Array;
}

export interface ResizeJpegOptions {
  width: number;
  height: number;
  /** `fill`: exactly `width × height`; `inside`: within the box, aspect kept, never enlarged. */
  fit: 'fill' | 'inside';
  /** JPEG quality 1–100. */
  quality: number;
}

export interface ResizeOptions extends Omit<ResizeJpegOptions, 'quality'> {
  /** JPEG is written progressive with optimised scans where the codec can (same pixels, fewer bytes). */
  format: ImageFormat;
  /** Quality 1–100 for JPEG and WebP; PNG ignores it. */
  quality: number;
}

/** An area-averaged reduction and the size of the frame it came from. */
export interface Reduction {
  /** `max(1, round(source / cellSize))` on each side, RGB. */
  image: RawImage;
  sourceWidth: number;
  sourceHeight: number;
}

/**
 * Decodes, resizes and encodes images. Every method rejects with `ImageCodecError`
 * (`IMAGE_UNDECODABLE`) on input it cannot read; nothing else is an error.
 */
export interface ImageCodec {
  readonly kind: 'sharp' | 'js';
  /** One line for banners and /health, e.g. `sharp 0.35.5 (libvips 8.18.7)`. */
  readonly description: string;
  /** JPEG or PNG → RGB pixels (alpha dropped). */
  decode(image: Uint8Array): Promise<RawImage>;
  /** Raw RGB/RGBA pixels → a baseline JPEG. */
  encodeJpeg(image: RawImage, quality: number): Promise<Buffer>;
  /** JPEG or PNG → resized (Lanczos-3) → JPEG. */
  resizeJpeg(image: Uint8Array, options: ResizeJpegOptions): Promise<Buffer>;
  /** The formats `resize` writes (sharp: all of IMAGE_FORMATS; the JS codec: JPEG and PNG). */
  readonly writes: readonly ImageFormat[];
  /** JPEG or PNG → resized (Lanczos-3; same size: re-encoded only) → `format`, one of `writes`. */
  resize(image: Uint8Array, options: ResizeOptions): Promise<Buffer>;
  /** JPEG, PNG or raw pixels → one averaged RGB cell per `cellSize × cellSize` pixels. */
  reduce(image: Uint8Array | RawImage, cellSize: number): Promise<Reduction>;
}

/** A codec failure with a `code`; `cause` is the library's own error. */
export class ImageCodecError extends Error {
  readonly code: 'IMAGE_UNDECODABLE' | 'IMAGE_CODEC_UNAVAILABLE' | 'IMAGE_FORMAT_UNSUPPORTED';
  constructor(code: ImageCodecError['code'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ImageCodecError';
    this.code = code;
  }
}

/** The cell grid of a reduction: `max(1, round(size / cellSize))`. */
export function reducedSize(width: number, height: number, cellSize: number) {
  return {
    width: Math.max(1, Math.round(width / cellSize)),
    height: Math.max(1, Math.round(height / cellSize)),
  };
}

/** The `fit: 'inside'` target: within the box, aspect kept, never enlarged. */
export function insideSize(width: number, height: number, maxWidth: number, maxHeight: number) {
  const scale = Math.min(maxWidth / width, maxHeight / height, 1);
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

export function isRawImage(image: Uint8Array | RawImage): image is RawImage {
  return !(image instanceof Uint8Array);
}
