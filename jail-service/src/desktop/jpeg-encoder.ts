// JPEG encoding of a desktop screenshot with sharp (libvips). Loaded on first use, so a
// jail-service without the desktop surface never needs the native module.
import { BrowserUnavailableError } from '../errors.js';
import type { RgbImage } from './xwd-image.js';

type Sharp = typeof import('sharp').default;
export type JpegEncoder = (image: RgbImage, quality: number) => Promise<Uint8Array>;

/** The encoder rejects with BrowserUnavailableError when sharp cannot be loaded on this host. */
export function createJpegEncoder(): JpegEncoder {
  let loaded: Promise<Sharp> | undefined;
  return async (image, quality) => {
    loaded ??= import('sharp').then((module) => module.default);
    let sharp: Sharp;
    try {
      sharp = await loaded;
    } catch (error) {
      loaded = undefined;
      throw new BrowserUnavailableError(
        `desktop screenshots need sharp (libvips): ${(error as Error).message}`,
        error,
      );
    }
    const { width, height, rgb } = image;
    return sharp(rgb, { raw: { width, height, channels: 3 } })
      .jpeg({ quality })
      .toBuffer();
  };
}
