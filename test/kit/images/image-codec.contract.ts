// The contract of the image codec port (@clawdie/kit/images), run against the sharp and
// the pure-JS adapter: outputs decode, sizes are right, quality is monotone, reductions average.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ImageCodec, imageSize, type RawImage } from '@clawdie/kit/images';

/** A 320×200 test card: gradients, flat blocks and (with `stripes`) fine detail for JPEG quality. */
export function testCard(width = 320, height = 200, stripes = true): RawImage {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const block = x < width / 2 ? (y < height / 2 ? [200, 40, 40] : [40, 200, 40]) : null;
      const stripe = stripes && (x + y) % 7 < 3 ? 60 : 0;
      data[i] = block?.[0] ?? (x * 255) / width;
      data[i + 1] = block?.[1] ?? (y * 255) / height;
      data[i + 2] = (block?.[2] ?? 128) + stripe;
    }
  }
  return { width, height, channels: 3, data };
}

/** Mean absolute channel difference of two RGB images of the same size. */
export function meanDelta(a: RawImage, b: RawImage): number {
  assert.deepEqual([a.width, a.height, a.channels], [b.width, b.height, b.channels]);
  let total = 0;
  for (let i = 0; i < a.data.length; i++) total += Math.abs((a.data[i] ?? 0) - (b.data[i] ?? 0));
  return total / a.data.length;
}

export function imageCodecContract(name: string, make: () => ImageCodec): void {
  describe(`ImageCodec contract: ${name}`, () => {
    it('encodes raw RGB and RGBA to a JPEG that decodes to the same size and close pixels', async () => {
      const codec = make();
      const card = testCard();
      const jpeg = await codec.encodeJpeg(card, 90);
      assert.deepEqual([...jpeg.subarray(0, 2)], [0xff, 0xd8], 'a JPEG');
      const back = await codec.decode(jpeg);
      assert.deepEqual([back.width, back.height, back.channels], [320, 200, 3]);
      assert.ok(meanDelta(card, back) < 8, `mean delta ${meanDelta(card, back)}`);
      const rgba = new Uint8Array(4 * 4 * 4).fill(255);
      const small = await codec.decode(
        await codec.encodeJpeg({ width: 4, height: 4, channels: 4, data: rgba }, 80),
      );
      assert.deepEqual([small.width, small.height], [4, 4]);
    });

    it('gives larger JPEGs at higher quality', async () => {
      const codec = make();
      const card = testCard();
      const sizes = [];
      for (const quality of [20, 50, 80, 95])
        sizes.push((await codec.encodeJpeg(card, quality)).length);
      for (let i = 1; i < sizes.length; i++) {
        assert.ok((sizes[i] ?? 0) > (sizes[i - 1] ?? 0), `sizes ${sizes.join(' < ')}`);
      }
    });

    it('resizes to exact size (fill) and within a box without enlarging (inside)', async () => {
      const codec = make();
      const jpeg = await codec.encodeJpeg(testCard(), 90);
      const fill = await codec.decode(
        await codec.resizeJpeg(jpeg, { width: 140, height: 84, fit: 'fill', quality: 80 }),
      );
      assert.deepEqual([fill.width, fill.height], [140, 84]);
      const inside = await codec.decode(
        await codec.resizeJpeg(jpeg, { width: 160, height: 160, fit: 'inside', quality: 80 }),
      );
      assert.deepEqual([inside.width, inside.height], [160, 100]);
      const kept = await codec.decode(
        await codec.resizeJpeg(jpeg, { width: 1000, height: 1000, fit: 'inside', quality: 80 }),
      );
      assert.deepEqual([kept.width, kept.height], [320, 200]);
    });

    it('decodes PNG, and reduces encoded and raw input to one averaged cell per 8×8', async () => {
      const codec = make();
      const card = testCard();
      const png = (await import('pngjs')).default.PNG.sync.write(
        Object.assign(new (await import('pngjs')).default.PNG({ width: 2, height: 1 }), {
          data: Buffer.from([255, 0, 0, 255, 0, 0, 255, 128]),
        }),
      );
      const decoded = await codec.decode(png);
      assert.deepEqual([decoded.width, decoded.height, decoded.channels], [2, 1, 3]);
      assert.deepEqual([...decoded.data], [255, 0, 0, 0, 0, 255]);
      const raw = await codec.reduce(card, 8);
      assert.deepEqual([raw.image.width, raw.image.height, raw.image.channels], [40, 25, 3]);
      assert.deepEqual([raw.sourceWidth, raw.sourceHeight], [320, 200]);
      // The top-left quarter is flat red: its cells average to red.
      assert.ok(Math.abs((raw.image.data[3 * (5 * 40 + 5)] ?? 0) - 200) <= 2);
      const encoded = await codec.reduce(await codec.encodeJpeg(card, 95), 8);
      assert.ok(meanDelta(raw.image, encoded.image) < 4);
    });

    it('resize writes each format it lists, at the size asked, its size readable from the header', async () => {
      const codec = make();
      const jpeg = await codec.encodeJpeg(testCard(), 90);
      const magic = { jpeg: [0xff, 0xd8], png: [0x89, 0x50], webp: [0x52, 0x49] };
      assert.ok(codec.writes.includes('jpeg') && codec.writes.includes('png'));
      for (const format of codec.writes) {
        const out = await codec.resize(jpeg, {
          width: 140,
          height: 84,
          fit: 'fill',
          format,
          quality: 60,
        });
        assert.deepEqual([...out.subarray(0, 2)], magic[format], format);
        assert.deepEqual(imageSize(out), { width: 140, height: 84 }, format);
        if (format !== 'webp') {
          const back = await codec.decode(out);
          assert.deepEqual([back.width, back.height], [140, 84], format);
        }
      }
      for (const format of (['jpeg', 'webp', 'png'] as const).filter(
        (f) => !codec.writes.includes(f),
      ))
        await assert.rejects(
          codec.resize(jpeg, { width: 2, height: 2, fit: 'fill', format, quality: 60 }),
          { code: 'IMAGE_FORMAT_UNSUPPORTED' },
        );
    });

    it('rejects undecodable input with IMAGE_UNDECODABLE', async () => {
      const codec = make();
      const junk = new Uint8Array([0xff, 0xd8, 1, 2, 3, 4, 5, 6]);
      await assert.rejects(codec.decode(junk), { code: 'IMAGE_UNDECODABLE' });
      await assert.rejects(codec.decode(new Uint8Array([1, 2, 3])), { code: 'IMAGE_UNDECODABLE' });
      await assert.rejects(
        codec.resizeJpeg(junk, { width: 2, height: 2, fit: 'fill', quality: 80 }),
        { code: 'IMAGE_UNDECODABLE' },
      );
    });
  });
}
