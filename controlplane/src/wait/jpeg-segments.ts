// Walks a JPEG's marker segments: what both the size probe and the DC decoder need from the
// headers. Fill bytes and markers without a length are skipped.

export interface JpegSegment {
  marker: number;
  /** First byte after the marker and its length field. */
  body: number;
  /** One past the segment (for SOS: past its header; the entropy-coded data follows). */
  end: number;
}

/**
 * The segments from after SOI on, in order. Stops (without yielding) at the first byte that is not
 * a marker, a length that runs past the data, or the end of the data; yields nothing when `data`
 * does not start with SOI.
 */
export function* jpegSegments(data: Uint8Array): Generator<JpegSegment> {
  if (data[0] !== 0xff || data[1] !== 0xd8) return;
  let at = 2;
  while (at + 4 <= data.length) {
    if (data[at] !== 0xff) return;
    const marker = data[at + 1] as number;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    const body = at + 4;
    const end = at + 2 + (((data[at + 2] as number) << 8) | (data[at + 3] as number));
    if (end > data.length || end < body) return;
    yield { marker, body, end };
    at = end;
  }
}

/** Width and height from a baseline/progressive JPEG's SOF marker; null if not a JPEG. */
export function jpegSize(image: Uint8Array): { width: number; height: number } | null {
  for (const { marker, body } of jpegSegments(image)) {
    if (marker === 0xd9 || marker === 0xda) return null; // EOI / SOS before any SOF
    const isSof =
      marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) {
      const height = ((image[body + 1] as number) << 8) | (image[body + 2] as number);
      const width = ((image[body + 3] as number) << 8) | (image[body + 4] as number);
      return width > 0 && height > 0 ? { width, height } : null;
    }
  }
  return null;
}
