import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  actionSpaceLines,
  buildSystemPrompt,
  clampToViewport,
  IMAGE_FACTOR,
  mapModelPoint,
  modelDivisors,
  modelPointToScreenshot,
  parseBoxValue,
  parsePrediction,
  RELATIVE_DIVISOR,
  roundHalfEven,
  SUPPORTED_ACTION_NAMES,
  screenshotToCss,
  smartResize,
  toBrowserActions,
} from '../../../../controlplane/src/agent/uitars/index.js';

describe('uitars index', () => {
  it('exposes the public functions and constants by name', () => {
    const functions = {
      actionSpaceLines,
      buildSystemPrompt,
      clampToViewport,
      mapModelPoint,
      modelDivisors,
      modelPointToScreenshot,
      parseBoxValue,
      parsePrediction,
      roundHalfEven,
      screenshotToCss,
      smartResize,
      toBrowserActions,
    };
    for (const [name, value] of Object.entries(functions)) {
      assert.equal(typeof value, 'function', name);
    }
    assert.equal(IMAGE_FACTOR, 28);
    assert.equal(RELATIVE_DIVISOR, 1000);
    assert.ok(SUPPORTED_ACTION_NAMES.includes('click'));
  });

  it('runs a whole turn: prompt → model text → parsed actions → browser plan', () => {
    const prompt = buildSystemPrompt({ mode: '1.5', actionSpace: 'browser' });
    assert.ok(prompt.endsWith('## User Instruction\n'));
    const parsed = parsePrediction(
      "Thought: Search for it.\nAction: click(start_box='<|box_start|>(644,364)<|box_end|>')\n\ntype(content='clawdie\\n')",
    );
    assert.ok(parsed.success);
    const plan = toBrowserActions(parsed.data.actions, {
      mode: '1.5',
      screenshot: { width: 2560, height: 1600 },
      devicePixelRatio: 2,
      viewport: { width: 1280, height: 800 },
      waitMs: 5000,
      scrollAmount: 500,
    });
    assert.ok(plan.success);
    assert.deepEqual(
      plan.steps.map((step) => step.kind === 'browser' && step.action),
      [
        { type: 'click', x: (644 / 2548) * 1280, y: (364 / 1596) * 800 },
        { type: 'type', text: 'clawdie\n' },
      ],
    );
  });
});
