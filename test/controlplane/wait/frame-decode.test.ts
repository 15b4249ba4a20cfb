import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { thumbnailOfImage } from '../../../controlplane/src/wait/frame-diff.js';
import { FrameHub } from '../../../controlplane/src/wait/frame-hub.js';
import { jpegSize } from '../../../controlplane/src/wait/jpeg-segments.js';
import { createManualClock } from '../../support/manual-clock.js';
import { testImages } from '../../support/test-images.js';

const image = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#336699' } });

describe('frame decoding for the gate', () => {
  it('reads a JPEG size from its SOF header (baseline and progressive), null for PNG', async () => {
    const baseline = await image(1920, 1080).jpeg().toBuffer();
    const progressive = await image(1366, 768).jpeg({ progressive: true }).toBuffer();
    assert.deepEqual(jpegSize(baseline), { width: 1920, height: 1080 });
    assert.deepEqual(jpegSize(progressive), { width: 1366, height: 768 });
    assert.equal(jpegSize(await image(10, 10).png().toBuffer()), null);
    assert.equal(jpegSize(Buffer.from([0xff, 0xd8, 0xff])), null);
    const thumb = await thumbnailOfImage(progressive, testImages);
    assert.deepEqual([thumb.width, thumb.height, thumb.data.length], [171, 96, 171 * 96 * 3]);
    const png = await thumbnailOfImage(await image(64, 32).png().toBuffer(), testImages);
    assert.deepEqual([png.width, png.height, png.sourceWidth], [8, 4, 64]);
  });

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
