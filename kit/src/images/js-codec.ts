// Adapter: the image codec in plain JavaScript (jpeg-js for JPEG, pngjs for PNG, resample.ts for
// sizes). Slower than sharp but loads everywhere Node does: the fallback where sharp cannot.
import jpeg from 'jpeg-js';
import pngjs from 'pngjs';
import {
  type ImageCodec,
  ImageCodecError,
  insideSize,
  isRawImage,
  type RawImage,
  type ResizeJpegOptions,
  reducedSize,
} from './image-codec.js';
import { resample, withChannels } from './resample.js';

/** Decoder limits: a hostile image is refused before it can take the process's memory. */
const MAX_MEGAPIXELS = 100;
const MAX_MEMORY_MB = 1024;

function isPng(image: Uint8Array): boolean {
  return image[0] === 0x89 && image[1] === 0x50 && image[2] === 0x4e && image[3] === 0x47;
}

function isJpeg(image: Uint8Array): boolean {
  return image[0] === 0xff && image[1] === 0xd8;
}

/** pngjs has no size limit of its own: read IHDR's size first (as jpeg-js's maxResolutionInMP). */
function refuseHugePng(image: Uint8Array): void {
  if (image.length < 24) return;
  const view = new DataView(image.buffer, image.byteOffset, image.length);
  const pixels = view.getUint32(16) * view.getUint32(20);
  if (pixels > MAX_MEGAPIXELS * 1_000_000) {
    throw new Error(`PNG of ${pixels} pixels exceeds the ${MAX_MEGAPIXELS} MP limit`);
  }
}

/** JPEG → RGB, PNG → RGBA pixels. */
function decodeRaw(image: Uint8Array): RawImage {
  try {
    if (isJpeg(image)) {
      const decoded = jpeg.decode(image, {
        useTArray: true,
        formatAsRGBA: false,
        tolerantDecoding: true,
        maxResolutionInMP: MAX_MEGAPIXELS,
        maxMemoryUsageInMB: MAX_MEMORY_MB,
      });
      return { width: decoded.width, height: decoded.height, channels: 3, data: decoded.data };
    }
    if (isPng(image)) {
      refuseHugePng(image);
      const decoded = pngjs.PNG.sync.read(
        Buffer.from(image.buffer, image.byteOffset, image.length),
      );
      const data = new Uint8Array(
        decoded.data.buffer,
        decoded.data.byteOffset,
        decoded.data.length,
      );
      return { width: decoded.width, height: decoded.height, channels: 4, data };
    }
  } catch (error) {
    throw new ImageCodecError(
      'IMAGE_UNDECODABLE',
      `cannot decode image: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  throw new ImageCodecError('IMAGE_UNDECODABLE', 'cannot decode image: neither JPEG nor PNG');
}

function encode(image: RawImage, quality: number): Buffer {
  const rgba = withChannels(image, 4);
  const data = Buffer.from(rgba.data.buffer, rgba.data.byteOffset, rgba.data.length);
  return jpeg.encode({ width: rgba.width, height: rgba.height, data }, quality).data;
}

function encodePng(image: RawImage): Buffer {
  const rgba = withChannels(image, 4);
  const png = new pngjs.PNG({ width: rgba.width, height: rgba.height });
  png.data = Buffer.from(rgba.data.buffer, rgba.data.byteOffset, rgba.data.length);
  return pngjs.PNG.sync.write(png);
}

/** Decodes `image` and resizes it as `options` say (Lanczos-3; the same size is kept as is). */
function resized(image: Uint8Array, options: ResizeJpegOptions): RawImage {
  const decoded = decodeRaw(image);
  const target =
    options.fit === 'fill'
      ? { width: options.width, height: options.height }
      : insideSize(decoded.width, decoded.height, options.width, options.height);
  const same = target.width === decoded.width && target.height === decoded.height;
  return same ? decoded : resample(decoded, target.width, target.height, 'lanczos3');
}

/** The pure-JS codec. */
export function createJsCodec(): ImageCodec {
  return {
    kind: 'js',
    description: 'pure-JS encoder (jpeg-js, pngjs)',
    async decode(image) {
      return withChannels(decodeRaw(image), 3);
    },
    async encodeJpeg(image, quality) {
      return encode(image, quality);
    },
    async resizeJpeg(image, options) {
      return encode(resized(image, options), options.quality);
    },
    writes: ['jpeg', 'png'],
    async resize(image, options) {
      if (options.format === 'png') return encodePng(resized(image, options));
      if (options.format === 'jpeg') return encode(resized(image, options), options.quality);
      throw new ImageCodecError(
        'IMAGE_FORMAT_UNSUPPORTED',
        `the pure-JS codec cannot write ${options.format}`,
      );
    },
    async reduce(image, cellSize) {
      const source = isRawImage(image) ? image : decodeRaw(image);
      const size = reducedSize(source.width, source.height, cellSize);
      const reduced = resample(source, size.width, size.height, 'box');
      return {
        image: withChannels(reduced, 3),
        sourceWidth: source.width,
        sourceHeight: source.height,
      };
    },
  };
}
