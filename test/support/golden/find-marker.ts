// Finds the golden marker in an image the model server received: the centre of the pixels of the
// marker colour, in that image's pixels. What a grounding model does, minus the learning.
import type { ImageCodec } from '@clawdie/kit/images';
import { testImages } from '../test-images.js';
import { GOLDEN_MARKER } from './golden-types.js';

export interface FoundMarker {
  /** The image's size. */
  width: number;
  height: number;
  /** The image's format, from its first bytes. */
  format: 'jpeg' | 'webp' | 'png' | 'other';
  /** The marker's centre, or null when no pixel has its colour. */
  centre: { x: number; y: number } | null;
}

function formatOf(bytes: Uint8Array): FoundMarker['format'] {
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'jpeg';
  if (bytes[0] === 0x89 && bytes[1] === 0x50) return 'png';
  const riff = String.fromCharCode(...bytes.subarray(8, 12));
  return riff === 'WEBP' ? 'webp' : 'other';
}

/** `image` is a data URL, base64 text or the encoded bytes (JPEG or PNG). */
export async function findMarker(
  image: string | Uint8Array,
  codec: ImageCodec = testImages,
  tolerance = 48,
): Promise<FoundMarker> {
  const bytes =
    typeof image === 'string' ? Buffer.from(image.slice(image.indexOf(',') + 1), 'base64') : image;
  const raw = await codec.decode(bytes);
  const [r, g, b] = GOLDEN_MARKER;
  let count = 0;
  let sumX = 0;
  let sumY = 0;
  for (let y = 0; y < raw.height; y++) {
    for (let x = 0; x < raw.width; x++) {
      const i = (y * raw.width + x) * raw.channels;
      if (
        Math.abs((raw.data[i] as number) - r) <= tolerance &&
        Math.abs((raw.data[i + 1] as number) - g) <= tolerance &&
        Math.abs((raw.data[i + 2] as number) - b) <= tolerance
      ) {
        count += 1;
        sumX += x + 0.5;
        sumY += y + 0.5;
      }
    }
  }
  const centre = count > 0 ? { x: sumX / count, y: sumY / count } : null;
  return { width: raw.width, height: raw.height, format: formatOf(bytes), centre };
}
