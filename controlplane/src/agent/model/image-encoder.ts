// Prepares screenshots for the model once per step: resize to the size the profile sends
// (smart_resize for UI-TARS-1.5 and Qwen, a pixel cap for UI-TARS-1.0, a display size for the
// hosted APIs) and JPEG-encode; history is never re-encoded.
import type { ImageCodec } from '@clawdie/kit/images';
import type { Screenshot } from '../../browser/operator/browser-operator.js';
import type { ImagePolicy, ProfileImage } from '../profiles/profile-types.js';

export interface ModelImage extends ProfileImage {
  /** False when the screenshot already had the target size and its JPEG was reused as-is. */
  reencoded: boolean;
}

export interface EncodeOptions {
  image: ImagePolicy;
  jpegQuality: number;
}

/** Encodes one screenshot for the model. Rejects only if the JPEG is undecodable. */
export async function encodeForModel(
  shot: Screenshot,
  options: EncodeOptions,
  codec: ImageCodec,
): Promise<ModelImage> {
  const { imageWidth, imageHeight } = shot.meta;
  const target = options.image.size(imageWidth, imageHeight);
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
  const base64 = jpeg.toString('base64');
  return {
    dataUrl: `data:image/jpeg;base64,${base64}`,
    base64,
    mediaType: 'image/jpeg',
    width: target.width,
    height: target.height,
    bytes: jpeg.length,
    reencoded,
  };
}
