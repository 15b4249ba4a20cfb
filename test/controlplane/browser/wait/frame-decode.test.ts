// The gate's thumbnails come from the image codec (sharp, or the pure-JS fallback): both must keep
// its semantics on real JPEGs, and the FrameHub must not decode a re-capture with the same bytes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJsCodec } from '@clawdie/kit/images';
import sharp from 'sharp';
import {
  diffThumbnails,
  thumbnailOfImage,
} from '../../../../controlplane/src/browser/wait/frame-diff.js';
import { FrameHub } from '../../../../controlplane/src/browser/wait/frame-hub.js';
import { createManualClock } from '../../../support/manual-clock.js';
import { testImages } from '../../../support/test-images.js';

const image = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#336699' } });

/** A screen-like picture: flat panels, text, a 16×16 icon and a photo-like noise patch. */
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

const encode = (png: Buffer, quality: number, progressive = false) =>
  sharp(png).jpeg({ quality, progressive }).toBuffer();

for (const codec of [testImages, createJsCodec()]) {
  describe(`gate thumbnails through the ${codec.kind} codec`, () => {
    it('re-encoding noise is not a change, a 16×16 icon of another colour is', async () => {
      const before = await screen(1280, 800);
      const after = await screen(1280, 800, '#27ae60');
      const reference = await thumbnailOfImage(await encode(before, 80), codec);
      for (const [quality, progressive] of [
        [75, false],
        [60, false],
        [40, false],
        [80, true],
      ] as const) {
        const again = await thumbnailOfImage(await encode(before, quality, progressive), codec);
        const noisy = diffThumbnails(reference, again);
        assert.equal(noisy.changed, false, `quality ${quality}: ${JSON.stringify(noisy)}`);
      }
      const icon = diffThumbnails(
        reference,
        await thumbnailOfImage(await encode(after, 80), codec),
      );
      assert.ok(icon.changed && icon.changedCells <= 9, JSON.stringify(icon));
    });

    it('has round(size / 8) cells of 3 bytes, for JPEG and PNG (1001×603 → 125×75)', async () => {
      const odd = await screen(1001, 603);
      for (const frame of [await encode(odd, 80), await encode(odd, 80, true), odd]) {
        const thumb = await thumbnailOfImage(frame, codec);
        assert.deepEqual([thumb.width, thumb.height, thumb.sourceWidth], [125, 75, 1001]);
        assert.equal(thumb.data.length, 125 * 75 * 3);
      }
    });
  });
}

describe('frame hub', () => {
  it('reuses the thumbnail when a re-capture has the same bytes, decodes when it differs', async () => {
    const clock = createManualClock(0);
    const hub = new FrameHub(clock, testImages);
    const a = await image(320, 200).jpeg().toBuffer();
    const b = await sharp(a).modulate({ brightness: 1.5 }).jpeg().toBuffer();
    const frames = [a, Buffer.from(a), b];
    const source = { key: 'd', capture: async () => frames.shift() as Buffer };
    const first = await hub.frame(source, 0);
    clock.advance(10);
    const same = await hub.frame(source, 0);
    clock.advance(10);
    const changed = await hub.frame(source, 0);
    assert.equal(hub.captures, 3);
    assert.equal(same.thumbnail, first.thumbnail);
    assert.notEqual(changed.thumbnail, first.thumbnail);
  });
});
