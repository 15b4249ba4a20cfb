// Adapter: the image codec over sharp (libvips; on FreeBSD its WebAssembly build). Built from an
// already loaded sharp module: select-codec.ts loads it and falls back to the JS codec if it can't.
import type sharpModule from 'sharp';
import {
  IMAGE_FORMATS,
  type ImageCodec,
  ImageCodecError,
  isRawImage,
  type RawImage,
  type ResizeJpegOptions,
  reducedSize,
} from './image-codec.js';

/** libwebp's effort for model images (0 fastest – 6 smallest). */
const WEBP_EFFORT = 2;

export type Sharp = typeof sharpModule;

function undecodable(error: unknown): never {
  throw new ImageCodecError(
    'IMAGE_UNDECODABLE',
    `cannot decode image: ${(error as Error).message}`,
    {
      cause: error,
    },
  );
}

function view(data: Buffer): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.length);
}

/** The sharp codec; `description` names sharp's and libvips' versions. */
export function createSharpCodec(sharp: Sharp): ImageCodec {
  const raw = (image: RawImage) =>
    sharp(image.data, {
      raw: { width: image.width, height: image.height, channels: image.channels },
    });
  const resized = (image: Uint8Array, options: ResizeJpegOptions) =>
    sharp(image).resize(
      options.width,
      options.height,
      options.fit === 'fill'
        ? { fit: 'fill', kernel: 'lanczos3' }
        : { fit: 'inside', withoutEnlargement: true },
    );
  return {
    kind: 'sharp',
    description: `sharp ${sharp.versions.sharp ?? '?'} (libvips ${sharp.versions.vips})`,
    async decode(image) {
      const { data, info } = await sharp(image, { failOn: 'none' })
        .toColourspace('srgb')
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true })
        .catch(undecodable);
      return { width: info.width, height: info.height, channels: 3, data: view(data) };
    },
    encodeJpeg(image, quality) {
      return raw(image).jpeg({ quality, mozjpeg: false }).toBuffer();
    },
    resizeJpeg(image, options) {
      return resized(image, options)
        .jpeg({ quality: options.quality, mozjpeg: false })
        .toBuffer()
        .catch(undecodable);
    },
    writes: IMAGE_FORMATS,
    resize(image, options) {
      const pipeline = resized(image, options);
      const encoded =
        options.format === 'webp'
          ? // Effort 2 of 0–6 (sharp's default is 4): a third less encode time for ≈ 4 % more
            // bytes, and grounds as well (docs/performance.md, "Bytes sent to the model").
            pipeline.webp({ quality: options.quality, effort: WEBP_EFFORT })
          : options.format === 'png'
            ? pipeline.png()
            : // Progressive with optimised scans: the baseline encoder's pixels, ~14 % fewer bytes.
              pipeline.jpeg({ quality: options.quality, progressive: true, optimiseScans: true });
      return encoded.toBuffer().catch(undecodable);
    },
    async reduce(image, cellSize) {
      const input = isRawImage(image) ? raw(image) : sharp(image, { failOn: 'none' });
      const source = isRawImage(image) ? image : await input.metadata().catch(undecodable);
      const sourceWidth = source.width ?? 1;
      const sourceHeight = source.height ?? 1;
      const size = reducedSize(sourceWidth, sourceHeight, cellSize);
      const { data } = await input
        .resize(size.width, size.height, { fit: 'fill', kernel: 'linear', fastShrinkOnLoad: true })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true })
        .catch(undecodable);
      return {
        image: { ...size, channels: 3, data: view(data) },
        sourceWidth,
        sourceHeight,
      };
    },
  };
}
