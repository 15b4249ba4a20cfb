// The image codec contract against both adapters, and the two agreeing with each other.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJsCodec, createSharpCodec } from '@clawdie/kit/images';
import sharp from 'sharp';
import { imageCodecContract, meanDelta, testCard } from './image-codec.contract.js';

imageCodecContract('sharp', () => createSharpCodec(sharp));
imageCodecContract('pure JS', () => createJsCodec());

describe('sharp and pure-JS codecs agree', () => {
  const js = createJsCodec();
  const native = createSharpCodec(sharp);

  it('decode each other’s JPEGs to the same pixels within tolerance', async () => {
    const card = testCard();
    const fromJs = await native.decode(await js.encodeJpeg(card, 90));
    const fromSharp = await js.decode(await native.encodeJpeg(card, 90));
    assert.ok(meanDelta(card, fromJs) < 8);
    assert.ok(meanDelta(card, fromSharp) < 8);
  });

  it('resize (Lanczos-3) to the same picture within tolerance', async () => {
    // No 7-px stripes here: detail finer than the output grid aliases differently in each.
    const jpeg = await native.encodeJpeg(testCard(320, 200, false), 95);
    const options = { width: 150, height: 90, fit: 'fill', quality: 90 } as const;
    const a = await native.decode(await native.resizeJpeg(jpeg, options));
    const b = await native.decode(await js.resizeJpeg(jpeg, options));
    assert.ok(meanDelta(a, b) < 3, `mean delta ${meanDelta(a, b)}`);
  });

  it('reduce to thumbnails whose cells agree within tolerance', async () => {
    const card = testCard();
    const a = await native.reduce(card, 8);
    const b = await js.reduce(card, 8);
    assert.deepEqual([a.image.width, a.image.height], [b.image.width, b.image.height]);
    assert.ok(meanDelta(a.image, b.image) < 4, `mean delta ${meanDelta(a.image, b.image)}`);
  });
});

describe('pure-JS codec limits', () => {
  it('refuses a PNG whose header claims more than 100 megapixels, before inflating it', async () => {
    const header = Buffer.alloc(33);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header);
    header.writeUInt32BE(13, 8);
    header.write('IHDR', 12, 'latin1');
    header.writeUInt32BE(20_000, 16);
    header.writeUInt32BE(20_000, 20);
    await assert.rejects(createJsCodec().decode(header), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'IMAGE_UNDECODABLE');
      assert.match(error.message, /exceeds the 100 MP limit/);
      return true;
    });
  });
});
