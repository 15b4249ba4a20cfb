// Planner additions for the model profiles (issue 22): a scroll by a share of the viewport
// (Gemini's magnitude) and `screenshot()` (a hosted API's "look again").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type BrowserPlanContext,
  toBrowserActions,
} from '../../../../controlplane/src/agent/uitars/to-browser-actions.js';

/** 1280×800 viewport at DPR 2. */
const CONTEXT: BrowserPlanContext = {
  mode: '1.0',
  screenshot: { width: 2560, height: 1600 },
  devicePixelRatio: 2,
  viewport: { width: 1280, height: 800 },
  waitMs: 5000,
  scrollAmount: 500,
};

describe('toBrowserActions: profile actions', () => {
  it('scrolls a screen_fraction of the viewport along the scroll axis', () => {
    const down = toBrowserActions(
      [{ name: 'scroll', args: { direction: 'down', screen_fraction: '0.4' } }],
      CONTEXT,
    );
    const left = toBrowserActions(
      [{ name: 'scroll', args: { direction: 'left', screen_fraction: '0.5' } }],
      CONTEXT,
    );
    assert.ok(down.success && left.success);
    const amountOf = (result: typeof down) =>
      result.success &&
      result.steps[0]?.kind === 'browser' &&
      result.steps[0].action.type === 'scroll'
        ? result.steps[0].action.amount
        : null;
    assert.equal(amountOf(down), 320); // 0.4 × 800
    assert.equal(amountOf(left), 640); // 0.5 × 1280
  });

  it('plans screenshot() (a profile\'s "look again") as a wait of 0 ms', () => {
    const result = toBrowserActions([{ name: 'screenshot', args: {} }], CONTEXT);
    assert.ok(result.success);
    assert.deepEqual(result.steps[0]?.kind === 'browser' && result.steps[0].action, {
      type: 'wait',
      ms: 0,
    });
  });
});
