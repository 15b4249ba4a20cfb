// What a model request carries (images, their bytes and pixels, its text), read from the body as
// sent — any wire's shape — and the token estimate for a server that reports no `usage`
// (docs/models.md, "Usage and cost"): text characters / 4, and per image ⌈w/28⌉ × ⌈h/28⌉ (one
// visual token per 28 × 28 patch, the Qwen2-VL / UI-TARS rule).
import { imageSize } from '@clawdie/kit/images';

/** Characters per estimated text token. */
export const CHARS_PER_TOKEN = 4;
/** Pixels per side of the patch one visual token covers. */
export const IMAGE_PATCH_PIXELS = 28;
/** Tokens counted for an image whose size cannot be read from its header. */
export const UNKNOWN_IMAGE_TOKENS = 1000;
/** Base64 characters decoded to find an image's header (48 KiB of bytes). */
const HEADER_BASE64_CHARS = 65_536;

/** Keys whose string values are protocol words, not text the model reads. */
const PROTOCOL_KEYS = new Set([
  'type',
  'role',
  'model',
  'id',
  'tool_call_id',
  'call_id',
  'detail',
  'media_type',
  'mime_type',
  'mimeType',
]);

export interface RequestMeasure {
  images: number;
  /** Decoded bytes of every image. */
  imageBytes: number;
  /** Visual tokens of every image by the patch rule. */
  imageTokens: number;
  /** Characters of every text the model reads (prompts, notes, earlier replies). */
  textChars: number;
}

/**
 * Measures a request body: `data:image/…;base64,` strings and `{data, media_type|mime_type}`
 * blocks are images; every other string, except protocol words, is text.
 */
export function measureRequest(body: unknown): RequestMeasure {
  const measure: RequestMeasure = { images: 0, imageBytes: 0, imageTokens: 0, textChars: 0 };
  const image = (base64: string) => {
    measure.images += 1;
    measure.imageBytes += base64Bytes(base64);
    measure.imageTokens += imageTokens(base64);
  };
  const walk = (value: unknown, key: string | null): void => {
    if (typeof value === 'string') {
      const comma = value.startsWith('data:image/') ? value.indexOf(',') : -1;
      if (comma >= 0) image(value.slice(comma + 1));
      else if (key === null || !PROTOCOL_KEYS.has(key)) measure.textChars += value.length;
      return;
    }
    if (Array.isArray(value)) {
      for (const item of value) walk(item, null);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const entries = Object.entries(value);
    const type = (value as Record<string, unknown>).media_type ?? mimeOf(value);
    const isBlock = typeof type === 'string' && type.startsWith('image/');
    for (const [name, item] of entries) {
      if (isBlock && name === 'data' && typeof item === 'string') image(item);
      else walk(item, name);
    }
  };
  walk(body, null);
  return measure;
}

const mimeOf = (value: object) =>
  (value as Record<string, unknown>).mime_type ?? (value as Record<string, unknown>).mimeType;

/** The estimate of a call's tokens: the request's text and images, and the reply's text. */
export function estimateTokens(
  measure: RequestMeasure,
  replyText: string,
): { promptTokens: number; completionTokens: number } {
  return {
    promptTokens: Math.ceil(measure.textChars / CHARS_PER_TOKEN) + measure.imageTokens,
    completionTokens: Math.ceil(replyText.length / CHARS_PER_TOKEN),
  };
}

/** Visual tokens of an image of `width × height` pixels: one per 28 × 28 patch. */
export function patchTokens(width: number, height: number): number {
  return Math.ceil(width / IMAGE_PATCH_PIXELS) * Math.ceil(height / IMAGE_PATCH_PIXELS);
}

function imageTokens(base64: string): number {
  const head = base64.slice(0, HEADER_BASE64_CHARS);
  const size =
    imageSize(Buffer.from(head, 'base64')) ??
    (base64.length > head.length ? imageSize(Buffer.from(base64, 'base64')) : undefined);
  return size ? patchTokens(size.width, size.height) : UNKNOWN_IMAGE_TOKENS;
}

function base64Bytes(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}
