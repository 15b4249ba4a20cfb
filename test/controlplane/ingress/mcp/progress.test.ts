import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Action } from '@clawdie/kit/jail-api';
import type { LoopEvent } from '../../../../controlplane/src/agent/loop/loop-types.js';
import { createProgressTracker } from '../../../../controlplane/src/ingress/mcp/progress.js';
import { describeAction } from '../../../../controlplane/src/tasks/step-summary.js';

const executed = (step: number, actions: Action[], status: 'ok' | 'error' = 'ok'): LoopEvent => ({
  type: 'actions-executed',
  step,
  executeMs: 1,
  executed: actions.map((action, index) => ({
    planned: { kind: 'browser', action, modelAction: { type: action.type } as never },
    result: { index, type: action.type, status, duration_ms: 1, navigated: false },
  })),
});
const ended = (step: number, outcome: string): LoopEvent =>
  ({ type: 'step-ended', step, outcome, message: null, at: 0 }) as LoopEvent;

describe('MCP progress', () => {
  it('describes each action in a few words', () => {
    const cases: [Action, string][] = [
      [{ type: 'click', x: 640.4, y: 399.6 }, 'click (640, 400)'],
      [{ type: 'type', text: 'demo' }, 'type "demo"'],
      [{ type: 'type', text: 'a'.repeat(40) }, `type "${'a'.repeat(23)}…"`],
      [{ type: 'scroll', x: 10, y: 20, direction: 'down' }, 'scroll down (10, 20)'],
      [{ type: 'drag', from: { x: 1, y: 2 }, to: { x: 3, y: 4 } }, 'drag (1, 2) → (3, 4)'],
      [{ type: 'hotkey', keys: ['ctrl', 'a'] }, 'hotkey ctrl+a'],
      [{ type: 'press', key: 'Enter' }, 'press Enter'],
      [{ type: 'navigate', url: 'https://example.org/' }, 'navigate https://example.org/'],
      [{ type: 'wait', ms: 1000 }, 'wait 1000 ms'],
      [{ type: 'navigate_back' }, 'navigate_back'],
    ];
    for (const [action, words] of cases) assert.equal(describeAction(action), words);
  });

  it('yields one update per ended step, naming its last action or its outcome', () => {
    const track = createProgressTracker(10);
    const updates = [
      { type: 'step-started', step: 1, at: 0 } as LoopEvent,
      executed(1, [
        { type: 'click', x: 1, y: 2 },
        { type: 'type', text: 'hi' },
      ]),
      ended(1, 'acted'),
      { type: 'step-started', step: 2, at: 0 } as LoopEvent,
      ended(2, 'parse_error'),
      { type: 'step-started', step: 3, at: 0 } as LoopEvent,
      executed(3, [{ type: 'press', key: 'Nope' }], 'error'),
      ended(3, 'action_error'),
      { type: 'step-started', step: 4, at: 0 } as LoopEvent,
      ended(4, 'finished'),
    ]
      .map(track)
      .filter((update) => update !== null);
    assert.deepEqual(
      updates.map((update) => update.message),
      [
        'step 1/10: type "hi"',
        'step 2/10: unreadable model reply',
        'step 3/10: press Nope (failed)',
        'step 4/10: finished',
      ],
    );
    assert.deepEqual(
      updates.map((update) => [update.progress, update.total]),
      [
        [1, 10],
        [2, 10],
        [3, 10],
        [4, 10],
      ],
    );
  });
});
