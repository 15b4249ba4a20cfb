/**
 * Golden round trips: place an element box (CSS px) on a page, write what a UI-TARS model would
 * answer for its centre, parse and plan it, and check that the click lands inside the element.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actionSchema } from '@clawdie/kit/jail-api';
import { parsePrediction } from '../../../../controlplane/src/agent/uitars/parse-prediction.js';
import {
  roundHalfEven,
  smartResize,
} from '../../../../controlplane/src/agent/uitars/smart-resize.js';
import { toBrowserActions } from '../../../../controlplane/src/agent/uitars/to-browser-actions.js';

interface Box {
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

const SCREENS = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 800 },
  { width: 3840, height: 2160 },
  { width: 390, height: 844 },
  { width: 1366, height: 768 },
];

function boxesFor(viewport: { width: number; height: number }): Box[] {
  const { width, height } = viewport;
  return [
    { name: 'origin corner at x=0', x: 0, y: 0, width: 24, height: 24 },
    { name: 'left edge at x=0', x: 0, y: Math.floor(height / 2) - 10, width: 40, height: 20 },
    { name: 'centre button', x: width / 2 - 60, y: height / 2 - 16, width: 120, height: 32 },
    { name: 'bottom-right corner', x: width - 30, y: height - 30, width: 30, height: 30 },
    { name: 'top-right icon', x: width - 48, y: 8, width: 40, height: 16 },
    { name: 'small odd box', x: 333.3, y: 177.7, width: 15, height: 11 },
  ];
}

/** What the model writes for a screenshot point (device px). */
function modelText(
  mode: '1.0' | '1.5',
  point: { x: number; y: number },
  screenshot: { width: number; height: number },
): string {
  if (mode === '1.0') {
    const x = roundHalfEven((point.x / screenshot.width) * 1000);
    const y = roundHalfEven((point.y / screenshot.height) * 1000);
    return `Thought: Click it.\nAction: click(start_box='(${x},${y})')`;
  }
  const resized = smartResize(screenshot.width, screenshot.height);
  assert.ok(resized);
  const x = roundHalfEven((point.x * resized.width) / screenshot.width);
  const y = roundHalfEven((point.y * resized.height) / screenshot.height);
  return `Thought: Click it.\nAction: click(start_box='<|box_start|>(${x},${y})<|box_end|>')`;
}

describe('golden coordinates: element centre → model text → CSS click inside the element', () => {
  for (const viewport of SCREENS) {
    for (const devicePixelRatio of [1, 2]) {
      const screenshot = {
        width: viewport.width * devicePixelRatio,
        height: viewport.height * devicePixelRatio,
      };
      for (const mode of ['1.0', '1.5'] as const) {
        it(`${viewport.width}×${viewport.height} @${devicePixelRatio}x, mode ${mode}`, () => {
          for (const box of boxesFor(viewport)) {
            const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
            const text = modelText(
              mode,
              { x: centre.x * devicePixelRatio, y: centre.y * devicePixelRatio },
              screenshot,
            );
            const parsed = parsePrediction(text);
            assert.ok(parsed.success, text);
            const plan = toBrowserActions(parsed.data.actions, {
              mode,
              screenshot,
              devicePixelRatio,
              viewport,
              waitMs: 5000,
              scrollAmount: 500,
            });
            assert.ok(plan.success, text);
            const [step] = plan.steps;
            assert.ok(step?.kind === 'browser' && step.action.type === 'click', text);
            assert.ok(actionSchema.safeParse(step.action).success, `schema: ${text}`);
            const { x, y } = step.action;
            const label = `${box.name}: ${text} → (${x}, ${y}) not in [${box.x}, ${box.x + box.width}] × [${box.y}, ${box.y + box.height}]`;
            assert.ok(x >= box.x && x <= box.x + box.width, label);
            assert.ok(y >= box.y && y <= box.y + box.height, label);
            assert.ok(
              Math.abs(x - centre.x) <= 2 && Math.abs(y - centre.y) <= 2,
              `off centre: ${label}`,
            );
          }
        });
      }
    }
  }

  it('reproduces the §3.4 worked example: (966,546) on 1920×1080 → (960,540)', () => {
    const parsed = parsePrediction("Action: click(start_box='<|box_start|>(966,546)<|box_end|>')");
    assert.ok(parsed.success);
    const context = {
      screenshot: { width: 1920, height: 1080 },
      devicePixelRatio: 1,
      viewport: { width: 1920, height: 1080 },
      waitMs: 5000,
      scrollAmount: 500,
    };
    const v15 = toBrowserActions(parsed.data.actions, { ...context, mode: '1.5' });
    assert.deepEqual(v15.success && v15.steps[0], {
      kind: 'browser',
      action: { type: 'click', x: 960, y: 540 },
      modelAction: parsed.data.actions[0],
      screenPoint: { x: 960, y: 540 },
      clamped: false,
    });
    const v10 = toBrowserActions(parsed.data.actions, { ...context, mode: '1.0' });
    assert.ok(v10.success);
    const step = v10.steps[0];
    assert.ok(step?.kind === 'browser' && step.action.type === 'click');
    assert.ok(Math.abs(step.action.x - 1854.72) < 1e-9 && Math.abs(step.action.y - 589.68) < 1e-9);
  });

  it('maps at a fractional DPR (1.25) with the smart-resized divisor', () => {
    const viewport = { width: 1536, height: 864 };
    const screenshot = { width: 1920, height: 1080 };
    const parsed = parsePrediction("Action: click(start_box='<|box_start|>(966,546)<|box_end|>')");
    assert.ok(parsed.success);
    const plan = toBrowserActions(parsed.data.actions, {
      mode: '1.5',
      screenshot,
      devicePixelRatio: 1.25,
      viewport,
      waitMs: 0,
      scrollAmount: 500,
    });
    assert.ok(plan.success);
    const step = plan.steps[0];
    assert.ok(step?.kind === 'browser' && step.action.type === 'click');
    assert.deepEqual({ x: step.action.x, y: step.action.y }, { x: 768, y: 432 });
  });
});
