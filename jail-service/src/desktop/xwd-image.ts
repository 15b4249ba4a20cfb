// Decodes the XWD dump `xwd -root` writes (ZPixmap, 24/32 bits per pixel, TrueColor) into packed
// RGB for the image codec. The 100-byte header is big-endian; pixel byte order is the header's
// `byte_order`.

export interface RgbImage {
  width: number;
  height: number;
  /** width × height × 3 bytes, row-major RGB. */
  rgb: Buffer;
}

const HEADER_FIELDS = 25;
const COLOR_ENTRY_BYTES = 12;
const Z_PIXMAP = 2;

/** Throws a plain Error on anything but a ZPixmap with 24 or 32 bits per pixel. */
export function decodeXwd(data: Buffer): RgbImage {
  if (data.length < HEADER_FIELDS * 4) throw new Error('xwd: image too short');
  const field = (index: number) => data.readUInt32BE(index * 4);
  const headerSize = field(0);
  const format = field(2);
  const width = field(4);
  const height = field(5);
  const msbFirst = field(7) === 1;
  const bitsPerPixel = field(11);
  const bytesPerLine = field(12);
  const masks = [field(14), field(15), field(16)] as const;
  const colors = field(19);
  const offset = headerSize + colors * COLOR_ENTRY_BYTES;
  if (format !== Z_PIXMAP || (bitsPerPixel !== 32 && bitsPerPixel !== 24)) {
    throw new Error(`xwd: unsupported format ${format} with ${bitsPerPixel} bits per pixel`);
  }
  if (width === 0 || height === 0 || data.length < offset + bytesPerLine * height) {
    throw new Error('xwd: truncated image');
  }
  const shifts = masks.map((mask) => (mask === 0 ? 0 : 31 - Math.clz32(mask & -mask)));
  const [rShift = 16, gShift = 8, bShift = 0] = shifts;
  const bytes = bitsPerPixel / 8;
  const rgb = Buffer.allocUnsafe(width * height * 3);
  if (bytes === 4 && !msbFirst && rShift === 16 && gShift === 8 && bShift === 0) {
    copyBgrx(data, offset, bytesPerLine, rgb, width, height);
    return { width, height, rgb };
  }
  let out = 0;
  for (let y = 0; y < height; y++) {
    let at = offset + y * bytesPerLine;
    for (let x = 0; x < width; x++, at += bytes) {
      const pixel =
        bytes === 4
          ? msbFirst
            ? data.readUInt32BE(at)
            : data.readUInt32LE(at)
          : msbFirst
            ? data.readUIntBE(at, 3)
            : data.readUIntLE(at, 3);
      rgb[out++] = (pixel >>> rShift) & 0xff;
      rgb[out++] = (pixel >>> gShift) & 0xff;
      rgb[out++] = (pixel >>> bShift) & 0xff;
    }
  }
  return { width, height, rgb };
}

/** The usual little-endian TrueColor layout (B, G, R, pad in memory), by plain byte copies. */
function copyBgrx(
  data: Buffer,
  offset: number,
  bytesPerLine: number,
  rgb: Buffer,
  width: number,
  height: number,
): void {
  let out = 0;
  for (let y = 0; y < height; y++) {
    let at = offset + y * bytesPerLine;
    const end = at + width * 4;
    for (; at < end; at += 4) {
      rgb[out++] = data[at + 2] as number;
      rgb[out++] = data[at + 1] as number;
      rgb[out++] = data[at] as number;
    }
  }
}
