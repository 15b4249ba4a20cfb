import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { demoTask } from '../../controlplane/src/platform/demo/demo-site-server.js';
import { requires } from '../support/capabilities.js';
import { runTestTask } from '../support/submit-task.js';
import { type E2eHarness, startE2eHarness } from './e2e-harness.js';

describe(
  'e2e: UI-TARS loop → jail-service → real Chromium on the demo shop',
  requires('chromium'),
  () => {
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

    it('logs in, searches, opens the product and reports its order reference', async () => {
      h.model.setMode('normal');
      const before = h.model.requests.length;
      const result = await runTestTask(
        { instruction: demoTask.instruction, start_url: `${h.siteUrl}/` },
        h.deps(),
      );
      assert.equal(result.status, 'finished', JSON.stringify(result));
      assert.equal(result.summary, demoTask.expectedValue);
      const modelCalls = h.model.requests.length - before;
      assert.equal(result.step_count, modelCalls);
      assert.ok(result.step_count >= 4, `expected a multi-step run, got ${result.step_count}`);

      const steps = await h.repository.listSteps(result.trace_id);
      assert.equal(steps.length, result.step_count);
      for (const step of steps) {
        assert.ok(
          step.screenshotPath && existsSync(step.screenshotPath),
          `step ${step.index} screenshot file`,
        );
        assert.ok(step.rawPrediction, `step ${step.index} raw prediction`);
        assert.notEqual(step.outcome, 'pending');
      }
      const actions = await Promise.all(steps.map((step) => h.repository.listActions(step.id)));
      const clicks = actions.flat().filter((a) => a.type === 'click');
      assert.ok(clicks.length >= 3);
      assert.ok(clicks.every((a) => a.status === 'ok'));
      assert.ok(result.final_screenshot_path && existsSync(result.final_screenshot_path));
      // Every request carried at most 5 screenshots, each already at the smart_resize size.
      assert.ok(
        h.model.requests.slice(before).every((r) => r.imageCount >= 1 && r.imageCount <= 5),
      );
    });

    it('ends PARSE_FAILED with a kept trace when the model talks nonsense', async () => {
      h.model.setMode('garbage');
      const result = await runTestTask(
        { instruction: demoTask.instruction, start_url: `${h.siteUrl}/` },
        h.deps(),
      );
      assert.equal(result.status, 'error');
      assert.equal(result.error?.code, 'PARSE_FAILED');
      assert.equal((await h.repository.listSteps(result.trace_id)).length, 3);
    });

    it('ends MODEL_UNAVAILABLE when the model server answers 500', async () => {
      h.model.setMode('http500');
      const result = await runTestTask(
        { instruction: 'anything', start_url: `${h.siteUrl}/` },
        h.deps({ retries: 1 }),
      );
      assert.equal(result.status, 'error');
      assert.equal(result.error?.code, 'MODEL_UNAVAILABLE');
      assert.equal((await h.repository.getTask(result.trace_id))?.errorCode, 'MODEL_UNAVAILABLE');
    });

    it('ends MODEL_TIMEOUT when the model server hangs', async () => {
      h.model.setMode('hang');
      const started = Date.now();
      const result = await runTestTask(
        { instruction: 'anything' },
        h.deps({ modelTimeoutMs: 1000 }),
      );
      assert.equal(result.error?.code, 'MODEL_TIMEOUT');
      assert.ok(Date.now() - started < 10_000);
      h.model.setMode('normal');
    });
  },
);
