// The pixel size in a WebP's first chunk (RIFF container, Google's "WebP Container Specification"):
// `VP8 ` (lossy: 14-bit width and height after the frame tag and start code), `VP8L` (lossless:
// 14-bit width − 1 and height − 1 after the signature byte) or `VP8X` (extended: 24-bit canvas
// width − 1 and height − 1).

const ascii = (data: Uint8Array, at: number, length: number) =>
  String.fromCharCode(...data.subarray(at, at + length));

/** `undefined` when `data` is not a WebP or its header is cut short. */
export function webpSize(data: Uint8Array): { width: number; height: number } | undefined {
  if (data.length < 30 || ascii(data, 0, 4) !== 'RIFF' || ascii(data, 8, 4) !== 'WEBP')
    return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const chunk = ascii(data, 12, 4);
  if (chunk === 'VP8 ') {
    if (data[23] !== 0x9d || data[24] !== 0x01 || data[25] !== 0x2a) return undefined;
    return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    if (data[20] !== 0x2f) return undefined;
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    const width = (view.getUint32(24, true) & 0xffffff) + 1;
    const height = (view.getUint32(26, true) >>> 8) + 1;
    return { width, height };
  }
  return undefined;
}
