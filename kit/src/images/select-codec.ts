// Picks the image codec once per process (its entry calls this): `CLAWDIE_IMAGE_ENCODER=auto`
// takes sharp when it loads and works, else the pure-JS codec with the reason; `sharp` insists on
// sharp (start-up fails if it cannot load); `js` never loads sharp.
import { createRequire } from 'node:module';
import { type ImageCodec, ImageCodecError, type ImageEncoderMode } from './image-codec.js';
import { createJsCodec } from './js-codec.js';
import { createSharpCodec, type Sharp } from './sharp-codec.js';

export interface ImageCodecChoice {
  codec: ImageCodec;
  /** Why sharp is not used (auto fell back, or `js` was asked for); null when sharp is in use. */
  fallbackReason: string | null;
  /** One line for the banner and /health: `sharp 0.35.5 (libvips 8.18.7)` or the JS codec + why. */
  summary: string;
}

export interface SelectCodecOptions {
  /** Loads sharp; injectable so a test can make it fail. Default: `require('sharp')`. */
  loadSharp?: () => Promise<Sharp>;
}

/**
 * sharp's CommonJS build: about 40 ms to load where its ES module build, which imports CommonJS
 * files (each then scanned for its exports), takes about 70 ms — on every CLI start-up.
 */
const importSharp = async (): Promise<Sharp> => createRequire(import.meta.url)('sharp') as Sharp;

/** Loads sharp and proves it can encode (a WebAssembly or native build that loads but fails). */
async function trySharp(load: () => Promise<Sharp>): Promise<ImageCodec | string> {
  try {
    const codec = createSharpCodec(await load());
    const pixel = { width: 1, height: 1, channels: 3 as const, data: new Uint8Array(3) };
    await codec.encodeJpeg(pixel, 80);
    return codec;
  } catch (error) {
    return (error as Error).message.split('\n')[0] ?? String(error);
  }
}

/** Resolves the codec for `mode`; rejects (IMAGE_CODEC_UNAVAILABLE) only for `sharp` without sharp. */
export async function selectImageCodec(
  mode: ImageEncoderMode,
  options: SelectCodecOptions = {},
): Promise<ImageCodecChoice> {
  const js = createJsCodec();
  if (mode === 'js') {
    const fallbackReason = 'CLAWDIE_IMAGE_ENCODER=js';
    return { codec: js, fallbackReason, summary: `${js.description} (${fallbackReason})` };
  }
  const sharp = await trySharp(options.loadSharp ?? importSharp);
  if (typeof sharp !== 'string') {
    return { codec: sharp, fallbackReason: null, summary: sharp.description };
  }
  if (mode === 'sharp') {
    throw new ImageCodecError(
      'IMAGE_CODEC_UNAVAILABLE',
      `CLAWDIE_IMAGE_ENCODER=sharp but sharp cannot be loaded: ${sharp} (set CLAWDIE_IMAGE_ENCODER=auto or js to use the pure-JS encoder)`,
    );
  }
  const fallbackReason = `sharp not loadable: ${sharp}`;
  return { codec: js, fallbackReason, summary: `${js.description} (${fallbackReason})` };
}
