import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actionSchema } from '@clawdie/kit/jail-api';
import { parsePrediction } from '../../../../controlplane/src/agent/uitars/parse-prediction.js';
import {
  type BrowserPlanContext,
  type BrowserPlanResult,
  SUPPORTED_ACTION_NAMES,
  toBrowserActions,
} from '../../../../controlplane/src/agent/uitars/to-browser-actions.js';
import type { ModelAction } from '../../../../controlplane/src/agent/uitars/types.js';

/** 1280×800 viewport at DPR 2, mode 1.0: model (500,500) → screenshot (1280,800) → CSS (640,400). */
const CONTEXT: BrowserPlanContext = {
  mode: '1.0',
  screenshot: { width: 2560, height: 1600 },
  devicePixelRatio: 2,
  viewport: { width: 1280, height: 800 },
  waitMs: 5000,
  scrollAmount: 500,
};

function actionsOf(text: string): ModelAction[] {
  const parsed = parsePrediction(`Action: ${text}`);
  if (!parsed.success) assert.fail(parsed.error.message);
  return parsed.data.actions;
}

function plan(text: string, context: BrowserPlanContext = CONTEXT): BrowserPlanResult {
  return toBrowserActions(actionsOf(text), context);
}

/** The jail-service actions of a successful plan, each validated against the jail-service schema. */
function browserActions(text: string, context: BrowserPlanContext = CONTEXT): unknown[] {
  const result = plan(text, context);
  if (!result.success) assert.fail(`${result.error.code}: ${result.error.message}`);
  return result.steps.map((step) => {
    assert.equal(step.kind, 'browser');
    assert.ok(step.kind === 'browser');
    assert.ok(actionSchema.safeParse(step.action).success, JSON.stringify(step.action));
    return step.action;
  });
}

function planError(
  text: string,
  context: BrowserPlanContext = CONTEXT,
): { code: string; message: string; actionIndex: number } {
  const result = plan(text, context);
  if (result.success) assert.fail(`expected failure, got ${JSON.stringify(result.steps)}`);
  return result.error;
}

describe('toBrowserActions: pointer actions', () => {
  const cases: Array<[string, string]> = [
    ['click', 'click'],
    ['left_single', 'click'],
    ['left_click', 'click'],
    ['left_double', 'left_double'],
    ['double_click', 'left_double'],
    ['right_single', 'right_single'],
    ['right_click', 'right_single'],
    ['hover', 'hover'],
    ['mouse_move', 'hover'],
  ];
  for (const [name, type] of cases) {
    it(`maps ${name} to ${type} in CSS pixels`, () => {
      assert.deepEqual(browserActions(`${name}(start_box='(500,500)')`), [
        { type, x: 640, y: 400 },
      ]);
    });
  }

  it('records the screenshot point, the model action and the clamping', () => {
    const result = plan("click(start_box='[250, 250, 250, 250]')");
    assert.ok(result.success);
    assert.deepEqual(result.steps, [
      {
        kind: 'browser',
        action: { type: 'click', x: 320, y: 200 },
        modelAction: {
          name: 'click',
          args: { start_box: '[250, 250, 250, 250]' },
          start: { x: 250, y: 250 },
        },
        screenPoint: { x: 640, y: 400 },
        clamped: false,
      },
    ]);
    const edge = plan("click(start_box='(1000,0)')");
    assert.ok(edge.success);
    assert.deepEqual(
      edge.steps[0]?.kind === 'browser' && [edge.steps[0].action, edge.steps[0].clamped],
      [{ type: 'click', x: 1279, y: 0 }, true],
    );
  });

  it('accepts coordinate 0', () => {
    assert.deepEqual(browserActions("click(start_box='(0,0)')"), [{ type: 'click', x: 0, y: 0 }]);
  });

  it('maps drag, left_click_drag and select with both boxes', () => {
    for (const name of ['drag', 'left_click_drag', 'select']) {
      assert.deepEqual(browserActions(`${name}(start_box='(100,100)', end_box='(500,250)')`), [
        { type: 'drag', from: { x: 128, y: 80 }, to: { x: 640, y: 200 } },
      ]);
    }
    assert.deepEqual(
      browserActions(
        "drag(start_point='<point>0 0</point>', end_point='<point>1000 1000</point>')",
      ),
      [{ type: 'drag', from: { x: 0, y: 0 }, to: { x: 1279, y: 799 } }],
    );
  });

  it('reports MISSING_ARGUMENT without a box and BAD_COORDINATES for a bad or far-away box', () => {
    assert.deepEqual(planError('click()'), {
      code: 'MISSING_ARGUMENT',
      message: 'click needs start_box.',
      actionIndex: 0,
    });
    assert.equal(planError("drag(start_box='(1,1)')").code, 'MISSING_ARGUMENT');
    assert.deepEqual(planError("click(start_box='(1,2,3)')"), {
      code: 'BAD_COORDINATES',
      message: "click start_box='(1,2,3)' is not a point (x,y) or a box (x1,y1,x2,y2).",
      actionIndex: 0,
    });
    assert.deepEqual(planError("wait()\n\nclick(start_box='(1500,10)')"), {
      code: 'BAD_COORDINATES',
      message: 'click start_box (1500,10) lies outside the screenshot.',
      actionIndex: 1,
    });
    assert.equal(planError("click(start_box='(-5,10)')").code, 'BAD_COORDINATES');
  });
});

describe('toBrowserActions: keyboard and text', () => {
  it('splits hotkey keys on spaces and +, lower-cased, from key= or hotkey=', () => {
    assert.deepEqual(browserActions("hotkey(key='ctrl c')"), [
      { type: 'hotkey', keys: ['ctrl', 'c'] },
    ]);
    assert.deepEqual(browserActions("hotkey(key='Ctrl+Shift+T')"), [
      { type: 'hotkey', keys: ['ctrl', 'shift', 't'] },
    ]);
    assert.deepEqual(browserActions("hotkey(hotkey='enter')"), [
      { type: 'hotkey', keys: ['enter'] },
    ]);
  });

  it('rejects an empty or over-long hotkey', () => {
    assert.equal(planError("hotkey(key='')").code, 'MISSING_ARGUMENT');
    assert.equal(planError('hotkey()').code, 'MISSING_ARGUMENT');
    assert.equal(planError("hotkey(key='a b c d e')").code, 'MISSING_ARGUMENT');
  });

  it('types unescaped content and keeps the trailing newline for Enter', () => {
    assert.deepEqual(browserActions(String.raw`type(content='it\'s "ok"\n')`), [
      { type: 'type', text: 'it\'s "ok"\n' },
    ]);
    assert.deepEqual(browserActions("type(content='')"), [{ type: 'type', text: '' }]);
    assert.equal(planError('type()').code, 'MISSING_ARGUMENT');
  });

  it('maps press to keydown and release to keyup', () => {
    assert.deepEqual(
      browserActions("press(key='Ctrl')\n\nclick(start_box='(500,500)')\n\nrelease(key='ctrl')"),
      [
        { type: 'keydown', key: 'ctrl' },
        { type: 'click', x: 640, y: 400 },
        { type: 'keyup', key: 'ctrl' },
      ],
    );
    assert.equal(planError('press()').code, 'MISSING_ARGUMENT');
    assert.equal(planError("release(key='ctrl c')").code, 'MISSING_ARGUMENT');
  });
});

describe('toBrowserActions: scroll, navigation, wait', () => {
  it('scrolls at the box in every direction with the default amount', () => {
    for (const direction of ['up', 'down', 'left', 'right']) {
      assert.deepEqual(browserActions(`scroll(start_box='(500,500)', direction='${direction}')`), [
        { type: 'scroll', x: 640, y: 400, direction, amount: 500 },
      ]);
    }
  });

  it('scrolls at the viewport centre without a box, honouring an explicit amount', () => {
    assert.deepEqual(browserActions("scroll(direction='Down', amount='120')"), [
      { type: 'scroll', x: 640, y: 400, direction: 'down', amount: 120 },
    ]);
  });

  it('rejects a missing or invalid direction, a bad amount and a bad box', () => {
    assert.equal(planError("scroll(start_box='(1,1)')").code, 'MISSING_ARGUMENT');
    assert.equal(planError("scroll(direction='down or up')").code, 'MISSING_ARGUMENT');
    assert.equal(planError("scroll(direction='up', amount='lots')").code, 'MISSING_ARGUMENT');
    assert.equal(planError("scroll(direction='up', amount='-3')").code, 'MISSING_ARGUMENT');
    assert.equal(planError("scroll(start_box='here', direction='up')").code, 'BAD_COORDINATES');
  });

  it('maps navigate and open_url (content= or url=) to navigate, and navigate_back', () => {
    assert.deepEqual(browserActions("navigate(content='https://example.org/')"), [
      { type: 'navigate', url: 'https://example.org/' },
    ]);
    assert.deepEqual(browserActions("open_url(url=' http://127.0.0.1:8080/a ')"), [
      { type: 'navigate', url: 'http://127.0.0.1:8080/a' },
    ]);
    assert.deepEqual(browserActions('navigate_back()'), [{ type: 'navigate_back' }]);
    assert.equal(planError("navigate(content='')").code, 'MISSING_ARGUMENT');
  });

  it('maps wait() to the configured wait', () => {
    assert.deepEqual(browserActions('wait()'), [{ type: 'wait', ms: 5000 }]);
    assert.deepEqual(browserActions('wait()', { ...CONTEXT, waitMs: 250 }), [
      { type: 'wait', ms: 250 },
    ]);
  });
});

describe('toBrowserActions: terminal steps and errors', () => {
  it('maps finished with its unescaped content (or "")', () => {
    const result = plan(String.raw`finished(content='Done.\nThe price is \'42\'.')`);
    assert.deepEqual(result, {
      success: true,
      steps: [{ kind: 'finished', content: "Done.\nThe price is '42'." }],
    });
    assert.deepEqual(plan('finished()'), {
      success: true,
      steps: [{ kind: 'finished', content: '' }],
    });
  });

  it('maps call_user and error_env with optional content', () => {
    assert.deepEqual(plan('call_user()'), { success: true, steps: [{ kind: 'call_user' }] });
    assert.deepEqual(plan("call_user(content='Please log in')"), {
      success: true,
      steps: [{ kind: 'call_user', content: 'Please log in' }],
    });
    assert.deepEqual(plan('error_env()'), { success: true, steps: [{ kind: 'error_env' }] });
  });

  it('keeps the steps before a terminal step and drops the ones after it', () => {
    const result = plan(
      "type(content='x')\n\nfinished(content='ok')\n\nclick(start_box='(1,1)')\n\nbogus()",
    );
    assert.ok(result.success);
    assert.deepEqual(
      result.steps.map((step) => step.kind),
      ['browser', 'finished'],
    );
  });

  it('reports UNSUPPORTED_ACTION with the supported names and the index', () => {
    const error = planError("wait()\n\nswipe(start_box='(1,1)')");
    assert.equal(error.code, 'UNSUPPORTED_ACTION');
    assert.equal(error.actionIndex, 1);
    assert.match(
      error.message,
      /^Unsupported action 'swipe'\. Supported actions: click, left_single, /,
    );
    for (const name of [
      'right_single',
      'navigate_back',
      'finished',
      'call_user',
      'press',
      'release',
    ]) {
      assert.ok(error.message.includes(name), name);
    }
  });

  it('lists every mapped name in SUPPORTED_ACTION_NAMES', () => {
    assert.deepEqual([...SUPPORTED_ACTION_NAMES].sort(), [
      'call_user',
      'click',
      'double_click',
      'drag',
      'error_env',
      'finished',
      'hotkey',
      'hover',
      'left_click',
      'left_click_drag',
      'left_double',
      'left_single',
      'mouse_move',
      'navigate',
      'navigate_back',
      'open_url',
      'press',
      'release',
      'right_click',
      'right_single',
      'screenshot',
      'scroll',
      'select',
      'type',
      'wait',
    ]);
  });

  it('returns an empty plan for no actions and throws on an invalid context', () => {
    assert.deepEqual(toBrowserActions([], CONTEXT), { success: true, steps: [] });
    assert.throws(() => toBrowserActions([], { ...CONTEXT, devicePixelRatio: 0 }), RangeError);
    assert.throws(() => toBrowserActions([], { ...CONTEXT, waitMs: 1.5 }), RangeError);
    assert.throws(
      () => toBrowserActions([], { ...CONTEXT, viewport: { width: 0, height: 800 } }),
      RangeError,
    );
  });
});
