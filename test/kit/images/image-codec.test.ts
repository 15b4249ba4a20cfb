// The image codec contract against both adapters, and the two agreeing with each other.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJsCodec, createSharpCodec, imageSize } from '@clawdie/kit/images';
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

describe('sharp model-image encodes', () => {
  const native = createSharpCodec(sharp);

  it('writes JPEG progressive: the baseline encoder’s pixels in fewer bytes', async () => {
    const jpeg = await native.encodeJpeg(testCard(640, 400), 95);
    const options = { width: 500, height: 300, fit: 'fill', quality: 80 } as const;
    const baseline = await native.resizeJpeg(jpeg, options);
    const progressive = await native.resize(jpeg, { ...options, format: 'jpeg' });
    assert.equal((await sharp(progressive).metadata()).isProgressive, true);
    assert.ok(progressive.length < baseline.length, `${progressive.length} < ${baseline.length}`);
    const a = await native.decode(baseline);
    const b = await native.decode(progressive);
    assert.equal(meanDelta(a, b), 0);
  });

  it('reads the size of lossy, lossless and extended WebP headers', async () => {
    const raw = { raw: { width: 37, height: 21, channels: 3 as const } };
    const pixels = Buffer.alloc(37 * 21 * 3, 90);
    const lossy = await sharp(pixels, raw).webp({ quality: 50 }).toBuffer();
    const lossless = await sharp(pixels, raw).webp({ lossless: true }).toBuffer();
    const extended = await sharp(pixels, raw).ensureAlpha(0.5).webp({ quality: 50 }).toBuffer();
    assert.deepEqual(
      [lossy, lossless, extended].map((webp) => String.fromCharCode(...webp.subarray(12, 16))),
      ['VP8 ', 'VP8L', 'VP8X'],
    );
    for (const webp of [lossy, lossless, extended])
      assert.deepEqual(imageSize(webp), { width: 37, height: 21 });
    assert.equal(imageSize(lossy.subarray(0, 20)), undefined, 'a header cut short');
  });
});
