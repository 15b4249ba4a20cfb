// Prepares screenshots for the model once per step: resize to the size the profile sends
// (smart_resize for UI-TARS-1.5 and Qwen, a pixel cap for UI-TARS-1.0, a display size for the
// hosted APIs) and encode in the profile's format (WebP for the hosted APIs, JPEG for self-hosted
// servers) or CLAWDIE_MODEL_IMAGE_FORMAT's; the history keeps the result and is never re-encoded.
// Where the profile allows it, a WebP screenshot also gets a copy at CLAWDIE_MODEL_OLDER_WEBP_QUALITY
// (same size), sent once it is no longer the newest (image-window.ts); the copy is encoded only
// when a request is about to need it (Conversation.prepare), so a screenshot never sent that way
// costs no second encode.
// docs/models.md, "Image formats"; the sweep behind the defaults: npm run bench:image-formats.
import type { ImageCodec } from '@clawdie/kit/images';
import type { Screenshot } from '../../browser/operator/browser-operator.js';
import type {
  ImagePolicy,
  ModelImageFormat,
  OlderCopy,
  ProfileImage,
} from '../profiles/profile-types.js';
import type { Size } from '../uitars/types.js';
import { type ModelServer, modelServerName } from './model-server.js';

export interface ModelImage extends ProfileImage {
  /** False when the screenshot already had the target size and its JPEG was reused as-is. */
  reencoded: boolean;
}

/** How model images are encoded: the operator's format (null: the profile's) and qualities. */
export interface ImageEncoding {
  /** CLAWDIE_MODEL_IMAGE_FORMAT; null sends the profile's `ImagePolicy.format`. */
  format: ModelImageFormat | null;
  /** CLAWDIE_MODEL_JPEG_QUALITY (default 80). */
  jpegQuality: number;
  /**
   * CLAWDIE_MODEL_WEBP_QUALITY (default 40: the lowest that passes the image-format bench's
   * equal-grounding check at every profile's size, docs/performance.md).
   */
  webpQuality: number;
  /** CLAWDIE_MODEL_OLDER_WEBP_QUALITY (default 10); at or above `webpQuality`: no older copy. */
  olderWebpQuality: number;
}

export const DEFAULT_IMAGE_ENCODING: ImageEncoding = {
  format: null,
  jpegQuality: 80,
  webpQuality: 40,
  olderWebpQuality: 10,
};

export interface EncodeOptions {
  image: ImagePolicy;
  encoding: ImageEncoding;
  /** The task's model server, where it was asked (model-server.ts); unset: not known. */
  server?: ModelServer | undefined;
}

/** True when the server decodes the profile's preferred format and the codec writes it. */
function preferredFits(options: EncodeOptions, codec: ImageCodec): boolean {
  const { preferred } = options.image;
  return (
    !!preferred &&
    !!options.server?.decodes?.includes(preferred) &&
    codec.writes.includes(preferred)
  );
}

/** The format asked for: the operator's, else the profile's (its preferred one where it fits). */
function wantedFormat(options: EncodeOptions, codec: ImageCodec): ModelImageFormat {
  if (options.encoding.format) return options.encoding.format;
  const { preferred, format } = options.image;
  return preferred && preferredFits(options, codec) ? preferred : format;
}

/**
 * The format a model image is written in: the operator's, or the profile's (its preferred one
 * where the server decodes it), JPEG where the codec cannot write it (the pure-JS codec has no
 * WebP encoder).
 */
export function modelImageFormat(options: EncodeOptions, codec: ImageCodec): ModelImageFormat {
  const wanted = wantedFormat(options, codec);
  return codec.writes.includes(wanted) ? wanted : 'jpeg';
}

/** One line for the banner and the task's log: the format and quality model images go in, and why. */
export function describeModelImages(options: EncodeOptions, codec: ImageCodec): string {
  const format = modelImageFormat(options, codec);
  const { jpegQuality, webpQuality } = options.encoding;
  const quality = format === 'png' ? '' : ` q${format === 'webp' ? webpQuality : jpegQuality}`;
  const older = olderQuality(options, format);
  const olderNote = older === null ? '' : `, older screenshots q${older}`;
  return `${format.toUpperCase()}${quality} (${whyFormat(options, codec)})${olderNote}`;
}

function whyFormat(options: EncodeOptions, codec: ImageCodec): string {
  const wanted = wantedFormat(options, codec);
  if (!codec.writes.includes(wanted))
    return `${wanted} asked; the ${codec.kind} codec cannot write it`;
  if (options.encoding.format) return 'CLAWDIE_MODEL_IMAGE_FORMAT';
  const change = 'CLAWDIE_MODEL_IMAGE_FORMAT changes it';
  const { preferred, format } = options.image;
  if (!preferred || preferred === format) return `the profile's; ${change}`;
  if (!options.server)
    return `the profile's; ${preferred.toUpperCase()} where the server says it is vLLM, SGLang or Ollama ≥ 0.32.14; ${change}`;
  const server = modelServerName(options.server);
  if (wanted === preferred) return `${server} decodes it; ${change}`;
  return options.server.decodes?.includes(preferred)
    ? `the profile's: the ${codec.kind} codec cannot write ${preferred}`
    : `the profile's: ${server} is not known to decode ${preferred}; ${change}`;
}

/** The quality of the older copy of a screenshot, or null when none is made. */
function olderQuality(options: EncodeOptions, format: ModelImageFormat): number | null {
  const { webpQuality, olderWebpQuality } = options.encoding;
  const lower = options.image.olderAtLowerQuality && format === 'webp';
  return lower && olderWebpQuality < webpQuality ? olderWebpQuality : null;
}

function profileImage(bytes: Buffer, format: ModelImageFormat, size: Size): ProfileImage {
  const base64 = bytes.toString('base64');
  const mediaType = `image/${format}` as const;
  return {
    dataUrl: `data:${mediaType};base64,${base64}`,
    base64,
    mediaType,
    width: size.width,
    height: size.height,
    bytes: bytes.length,
  };
}

/**
 * Encodes one screenshot for the model (and its older copy, where the profile allows one).
 * Rejects only if the JPEG is undecodable.
 */
export async function encodeForModel(
  shot: Screenshot,
  options: EncodeOptions,
  codec: ImageCodec,
): Promise<ModelImage> {
  const { imageWidth, imageHeight } = shot.meta;
  const target = options.image.size(imageWidth, imageHeight);
  const format = modelImageFormat(options, codec);
  const sameSize = target.width === imageWidth && target.height === imageHeight;
  const encode = (quality: number) =>
    codec.resize(shot.jpeg, { ...target, fit: 'fill', format, quality });
  const { jpegQuality, webpQuality } = options.encoding;
  const older = olderQuality(options, format);
  const bytes =
    sameSize && format === 'jpeg'
      ? shot.jpeg
      : await encode(format === 'webp' ? webpQuality : jpegQuality);
  const image = profileImage(bytes, format, target);
  return {
    ...image,
    ...(older === null
      ? {}
      : { older: olderCopy(async () => profileImage(await encode(older), format, target), image) }),
    reencoded: bytes !== shot.jpeg,
  };
}

/**
 * A copy made on first need from `encode` (which holds the screenshot until then). Should the
 * encode fail — it cannot for a JPEG the newest image was just made from — the copy is the image
 * itself: the request is as it would be without copies, never lost.
 */
export function olderCopy(encode: () => Promise<ProfileImage>, image: ProfileImage): OlderCopy {
  let source: (() => Promise<ProfileImage>) | null = encode;
  let pending: Promise<ProfileImage> | null = null;
  const copy: { made: ProfileImage | null } & OlderCopy = {
    made: null,
    make() {
      if (copy.made) return Promise.resolve(copy.made);
      pending ??= (source ?? (async () => image))()
        .catch(() => image)
        .then((made) => {
          copy.made = made;
          source = null;
          return made;
        });
      return pending;
    },
    discard() {
      if (!pending) source = null;
    },
  };
  return copy;
}
