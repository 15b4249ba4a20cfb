// Prepares screenshots for the model once per step: resize to the size the model server will use
// (smart_resize for UI-TARS-1.5, a pixel cap for 1.0) and JPEG-encode; history is never re-encoded.
import type { ImageCodec } from '@clawdie/kit/images';
import type { Screenshot } from '../../browser/operator/browser-operator.js';
import { smartResize } from '../uitars/smart-resize.js';

/** Pixel cap UI-TARS 1.0 servers apply (2700 visual tokens of 28×28). */
const MAX_PIXELS_V1_0 = 2700 * 28 * 28;

export interface ModelImage {
  dataUrl: string;
  width: number;
  height: number;
  bytes: number;
  /** False when the screenshot already had the target size and its JPEG was reused as-is. */
  reencoded: boolean;
}

export interface EncodeOptions {
  version: '1.5' | '1.0';
  jpegQuality: number;
}

/** The size the model sees for a screenshot of `width × height` device pixels. */
export function modelImageSize(
  width: number,
  height: number,
  version: '1.5' | '1.0',
): { width: number; height: number } {
  if (version === '1.5') return smartResize(width, height) ?? { width, height };
  if (width * height <= MAX_PIXELS_V1_0) return { width, height };
  const scale = Math.sqrt(MAX_PIXELS_V1_0 / (width * height));
  return { width: Math.floor(width * scale), height: Math.floor(height * scale) };
}

/** Encodes one screenshot for the model. Rejects only if the JPEG is undecodable. */
export async function encodeForModel(
  shot: Screenshot,
  options: EncodeOptions,
  codec: ImageCodec,
): Promise<ModelImage> {
  const { imageWidth, imageHeight } = shot.meta;
  const target = modelImageSize(imageWidth, imageHeight, options.version);
  let jpeg = shot.jpeg;
  let reencoded = false;
  if (target.width !== imageWidth || target.height !== imageHeight) {
    jpeg = await codec.resizeJpeg(shot.jpeg, {
      ...target,
      fit: 'fill',
      quality: options.jpegQuality,
    });
    reencoded = true;
  }
  return {
    dataUrl: `data:image/jpeg;base64,${jpeg.toString('base64')}`,
    width: target.width,
    height: target.height,
    bytes: jpeg.length,
    reencoded,
  };
}
