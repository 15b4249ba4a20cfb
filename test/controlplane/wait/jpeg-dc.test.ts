import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { diffThumbnails, thumbnailOfImage } from '../../../controlplane/src/wait/frame-diff.js';
import { type DcImage, decodeJpegDc } from '../../../controlplane/src/wait/jpeg-dc.js';
import { testImages } from '../../support/test-images.js';

/** A screen-like picture: flat panels, text, a coloured icon and a photo-like noise patch. */
async function screen(width: number, height: number, icon = '#c0392b'): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="40" fill="#2d2d2d"/>
    <rect x="60" y="80" width="${width / 2}" height="${height / 2}" fill="#ffffff"/>
    ${Array.from({ length: 12 }, (_, i) => `<text x="70" y="${110 + i * 18}" font-size="13">Line ${i} of some text</text>`).join('')}
    <rect x="${width - 120}" y="12" width="16" height="16" fill="${icon}"/></svg>`;
  const noise = await sharp({
    create: {
      width: 96,
      height: 64,
      channels: 3,
      background: '#000000',
      noise: { type: 'gaussian', mean: 128, sigma: 30 },
    },
  })
    .png()
    .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: '#ececec' } })
    .composite([
      { input: Buffer.from(svg), top: 0, left: 0 },
      { input: noise, top: height - 80, left: 10 },
    ])
    .png()
    .toBuffer();
}

/** Largest and mean channel difference from the 8×8 means of sharp's full decode. */
async function errorOf(jpeg: Buffer, dc: DcImage): Promise<{ max: number; mean: number }> {
  const { data, info } = await sharp(jpeg)
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  let max = 0;
  let total = 0;
  for (let cy = 0; cy < dc.height; cy++) {
    for (let cx = 0; cx < dc.width; cx++) {
      for (let k = 0; k < 3; k++) {
        let sum = 0;
        let n = 0;
        for (let y = cy * 8; y < Math.min(info.height, cy * 8 + 8); y++) {
          for (let x = cx * 8; x < Math.min(info.width, cx * 8 + 8); x++, n++) {
            sum += data[(y * info.width + x) * info.channels + k] as number;
          }
        }
        const delta = Math.abs(sum / n - (dc.data[(cy * dc.width + cx) * 3 + k] as number));
        max = Math.max(max, delta);
        total += delta;
      }
    }
  }
  return { max, mean: total / dc.data.length };
}

// 48×32, 4:2:0, quality 75, optimised Huffman tables, a restart marker after every MCU: written
// with libjpeg (sharp has no restart-interval option).
const RESTARTS = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcp' +
    'LDAxNDQ0Hyc5PTgyPC4zNDL/2wBDAQkJCQwLDBgNDRgyIRwhMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIy' +
    'MjIyMjIyMjIyMjIyMjL/wAARCAAgADADASIAAhEBAxEB/8QAFwABAQEBAAAAAAAAAAAAAAAAAAcGCP/EAB4QAAECBwEAAAAA' +
    'AAAAAAAAAAADBgcXRVWDpNLC/8QAFwEAAwEAAAAAAAAAAAAAAAAAAAIEBf/EAB8RAAAFBAMAAAAAAAAAAAAAAAABAgMRBBIT' +
    'YQVx0f/dAAQAAf/aAAwDAQACEQMRAD8AzkrXlZtpHsSteVm2kezo8AAf/9DOSteVm2kexK15WbaR7KTFWk5vBOSVypsUaYGv' +
    'S8VnaJy+J1vsf//RzkrXlZtpHsSteVm2keykwqq2H2UYRtd6SUKKpjA6bczHg//StgAAA//T00VaTm8E5OjASuU16jVI16Xl' +
    'cDRN2TG99D//1NNCqrYfZRgBG0WJJIoqn87puRE+D//Z',
  'base64',
);

describe('DC-only JPEG decoding', () => {
  it('gives the 8×8 block means of a full decode (4:2:0, 4:4:4, grey, odd sizes, restarts)', async () => {
    const big = await screen(1920, 1080);
    const odd = await screen(1001, 603);
    const cases: Array<[string, Buffer]> = [
      ['4:2:0 q80', await sharp(big).jpeg({ quality: 80 }).toBuffer()],
      ['4:4:4 q90', await sharp(big).jpeg({ quality: 90, chromaSubsampling: '4:4:4' }).toBuffer()],
      ['grey', await sharp(big).greyscale().jpeg().toBuffer()],
      ['odd size, standard tables', await sharp(odd).jpeg({ optimiseCoding: false }).toBuffer()],
      ['restart markers', RESTARTS],
    ];
    assert.ok(RESTARTS.includes(Buffer.from([0xff, 0xdd])), 'the fixture has a DRI segment');
    for (const [name, jpeg] of cases) {
      const dc = decodeJpegDc(jpeg);
      assert.ok(dc, name);
      const { width, height } = await sharp(jpeg).metadata();
      assert.deepEqual([dc.width, dc.height], [Math.ceil(width / 8), Math.ceil(height / 8)], name);
      const error = await errorOf(jpeg, dc);
      assert.ok(error.max <= 16 && error.mean <= 1, `${name}: ${JSON.stringify(error)}`);
    }
  });

  it('declines what it does not decode, and the gate then uses sharp', async () => {
    const picture = await screen(640, 360);
    const progressive = await sharp(picture).jpeg({ progressive: true }).toBuffer();
    const baseline = await sharp(picture).jpeg().toBuffer();
    assert.equal(decodeJpegDc(progressive), null);
    assert.equal(decodeJpegDc(picture), null, 'PNG');
    assert.equal(decodeJpegDc(baseline.subarray(0, 100)), null, 'cut before the scan');
    assert.equal(decodeJpegDc(Buffer.from('not an image')), null);
    const viaSharp = await thumbnailOfImage(progressive, testImages);
    const viaDc = await thumbnailOfImage(baseline, testImages);
    assert.deepEqual([viaSharp.width, viaSharp.height], [80, 45]);
    // The same picture, though sharp's 1/8 decode blurs cell edges a little (the DC decode is the
    // exact 8×8 mean): a dark bar's last cell row reads 69 there instead of 45.
    assert.ok(diffThumbnails(viaSharp, viaDc).meanDelta < 4);
  });

  it('decodes a frame cut inside its entropy data without throwing', async () => {
    const jpeg = await sharp(await screen(640, 360))
      .jpeg()
      .toBuffer();
    const cut = decodeJpegDc(jpeg.subarray(0, Math.floor(jpeg.length * 0.6)));
    assert.ok(cut);
    assert.deepEqual([cut.width, cut.height], [80, 45]);
  });

  it('keeps the gate semantics: re-encoding noise is not a change, a 16×16 icon is', async () => {
    const before = await screen(1920, 1080);
    const after = await screen(1920, 1080, '#27ae60');
    const encode = (png: Buffer, quality: number) => sharp(png).jpeg({ quality }).toBuffer();
    const reference = await thumbnailOfImage(await encode(before, 80), testImages);
    for (const quality of [75, 60, 40]) {
      const noisy = diffThumbnails(
        reference,
        await thumbnailOfImage(await encode(before, quality), testImages),
      );
      assert.equal(noisy.changed, false, `quality ${quality}: ${JSON.stringify(noisy)}`);
    }
    const icon = diffThumbnails(
      reference,
      await thumbnailOfImage(await encode(after, 80), testImages),
    );
    assert.ok(icon.changed && icon.changedCells <= 9, JSON.stringify(icon));
  });

  it('crops to round(size / 8) cells like the sharp path (1001×603 → 125×75)', async () => {
    const thumb = await thumbnailOfImage(
      await sharp(await screen(1001, 603))
        .jpeg()
        .toBuffer(),
      testImages,
    );
    assert.deepEqual([thumb.width, thumb.height, thumb.sourceWidth], [125, 75, 1001]);
    assert.equal(thumb.data.length, 125 * 75 * 3);
  });
});
