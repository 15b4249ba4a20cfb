// deferImageCodec: the choice is made once, on the first decode or encode (concurrent first calls
// share it), reported once, and a failed choice is retried on the next call.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createJsCodec,
  deferImageCodec,
  type ImageCodecChoice,
  NOT_YET_CHOSEN,
} from '@clawdie/kit/images';

const pixel = { width: 1, height: 1, channels: 3 as const, data: new Uint8Array([200, 10, 10]) };
const js = createJsCodec();
const jsChoice: ImageCodecChoice = { codec: js, fallbackReason: 'test', summary: 'js (test)' };

describe('deferImageCodec', () => {
  it('chooses once, on first use, for concurrent first calls, and reports the choice once', async () => {
    let chooses = 0;
    const reported: string[] = [];
    const deferred = deferImageCodec(
      async () => {
        chooses += 1;
        return jsChoice;
      },
      (choice) => reported.push(choice.summary),
    );
    assert.equal(chooses, 0);
    assert.equal(deferred.summary(), NOT_YET_CHOSEN);
    const [jpeg] = await Promise.all([
      deferred.codec.encodeJpeg(pixel, 90),
      deferred.codec.encodeJpeg(pixel, 90),
    ]);
    const decoded = await deferred.codec.decode(jpeg);
    assert.deepEqual([decoded.width, decoded.height], [1, 1]);
    assert.equal(chooses, 1);
    assert.deepEqual(reported, ['js (test)']);
    assert.equal(deferred.summary(), 'js (test)');
  });

  it('rejects the call whose choice failed and chooses again on the next', async () => {
    let chooses = 0;
    const deferred = deferImageCodec(
      async () => {
        chooses += 1;
        if (chooses === 1) throw new Error('no encoder yet');
        return jsChoice;
      },
      () => {},
    );
    await assert.rejects(deferred.codec.encodeJpeg(pixel, 90), /no encoder yet/);
    assert.equal(deferred.summary(), NOT_YET_CHOSEN);
    assert.ok((await deferred.codec.encodeJpeg(pixel, 90)).length > 0);
    assert.equal(chooses, 2);
  });
});
