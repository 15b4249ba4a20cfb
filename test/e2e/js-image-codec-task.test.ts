// The pure-JS image codec end to end: the demo task on real Chromium with the loop's codec forced
// to the JS adapter (as where sharp cannot be loaded). The task finishes, and every image the
// model received is a valid JPEG at the smart_resize size, encoded by the JS codec.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createJsCodec, type ImageCodec } from '@clawdie/kit/images';
import sharp from 'sharp';
import { uiTars15 } from '../../controlplane/src/agent/profiles/ui-tars.js';
import { demoTask } from '../../controlplane/src/platform/demo/demo-site-server.js';
import { requires } from '../support/capabilities.js';
import { runTestTask } from '../support/submit-task.js';
import { imageUrls } from '../support/uitars-test-model-messages.js';
import { type E2eHarness, startE2eHarness } from './e2e-harness.js';

/** The JS codec, counting the model-screenshot re-encodes it made. */
function countingJsCodec(): ImageCodec & { resizes: number } {
  const js = createJsCodec();
  const counted = {
    ...js,
    resizes: 0,
    resize(...args: Parameters<ImageCodec['resize']>) {
      counted.resizes += 1;
      return js.resize(...args);
    },
  };
  return counted;
}

describe('e2e: a replayed demo task with the pure-JS image codec', requires('chromium'), () => {
  let h: E2eHarness;
  before(async () => {
    h = await startE2eHarness({
      CLAWDIE_JAIL_VIEWPORT: '1280x800',
      CLAWDIE_JAIL_DEVICE_SCALE_FACTOR: '1',
    });
  });
  after(async () => {
    await h?.close();
  });

  it('finishes, and the model sees valid JPEGs at the smart_resize size', async () => {
    const codec = countingJsCodec();
    h.model.setMode('normal');
    const first = h.model.requests.length;
    const result = await runTestTask(
      { instruction: demoTask.instruction, start_url: `${h.siteUrl}/` },
      { ...h.deps(), images: codec },
    );
    assert.equal(result.status, 'finished', JSON.stringify(result));
    assert.equal(result.summary, demoTask.expectedValue);
    const expected = uiTars15.image.size(1280, 800);
    assert.notDeepEqual(expected, { width: 1280, height: 800 }, 'the screenshots are re-encoded');
    assert.equal(codec.resizes, result.step_count, 'every step re-encoded by the JS codec');
    const urls = h.model.requests.slice(first).flatMap((request) => imageUrls(request.messages));
    assert.ok(urls.length >= result.step_count);
    for (const url of new Set(urls)) {
      assert.ok(url.startsWith('data:image/jpeg;base64,'), url.slice(0, 40));
      const jpeg = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
      const meta = await sharp(jpeg).metadata();
      assert.deepEqual(
        [meta.format, meta.width, meta.height],
        ['jpeg', expected.width, expected.height],
      );
      const { info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
      assert.equal(info.width, expected.width, 'decodes fully');
    }
  });
});
