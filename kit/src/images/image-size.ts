import { jpegSize } from './jpeg-size.js';
import { webpSize } from './webp-size.js';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * The pixel size in a JPEG's start-of-frame marker, a PNG's IHDR chunk or a WebP's frame header;
 * `undefined` for other data or a header cut short.
 */
export function imageSize(data: Uint8Array): { width: number; height: number } | undefined {
  if (data[0] === 0xff) return jpegSize(data);
  if (data[0] === 0x52) return webpSize(data);
  if (data.length < 24 || PNG_SIGNATURE.some((byte, index) => data[index] !== byte))
    return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
