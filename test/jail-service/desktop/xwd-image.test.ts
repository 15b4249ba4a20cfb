import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeXwd } from '../../../jail-service/src/desktop/xwd-image.js';

/** A minimal XWD dump: ZPixmap, 32 bpp, the given byte order, one colour entry, padded rows. */
function xwd(width: number, height: number, pixels: number[], msbFirst: boolean): Buffer {
  const headerSize = 100 + 8; // header + "root\0" padded
  const bytesPerLine = width * 4 + 4;
  const data = Buffer.alloc(headerSize + 12 + bytesPerLine * height);
  const fields = [
    headerSize,
    7,
    2,
    24,
    width,
    height,
    0,
    msbFirst ? 1 : 0,
    32,
    0,
    32,
    32,
    bytesPerLine,
    4,
    0xff0000,
    0xff00,
    0xff,
    8,
    256,
    1,
  ];
  for (const [index, value] of fields.entries()) data.writeUInt32BE(value, index * 4);
  data.write('root\0', 100);
  pixels.forEach((pixel, index) => {
    const at = headerSize + 12 + Math.floor(index / width) * bytesPerLine + (index % width) * 4;
    if (msbFirst) data.writeUInt32BE(pixel, at);
    else data.writeUInt32LE(pixel, at);
  });
  return data;
}

describe('decodeXwd', () => {
  for (const msbFirst of [false, true]) {
    it(`decodes a ${msbFirst ? 'big' : 'little'}-endian 32-bit dump to RGB, skipping row padding`, () => {
      const image = decodeXwd(xwd(2, 2, [0xff0000, 0x00ff00, 0x0000ff, 0x123456], msbFirst));
      assert.deepEqual([image.width, image.height], [2, 2]);
      assert.deepEqual([...image.rgb], [255, 0, 0, 0, 255, 0, 0, 0, 255, 0x12, 0x34, 0x56]);
    });
  }

  it('throws on a truncated dump', () => {
    assert.throws(() => decodeXwd(xwd(2, 2, [], false).subarray(0, 120)), /truncated/);
  });
});
