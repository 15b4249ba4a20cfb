import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actionPoints, actionSchema, actionsRequestSchema } from '@clawdie/kit/jail-api';

describe('jail-service action contract', () => {
  it('accepts every action type in screen pixels', () => {
    const actions = [
      { type: 'click', x: 0, y: 0 },
      { type: 'left_double', x: 10, y: 20 },
      { type: 'right_single', x: 10, y: 20 },
      { type: 'hover', x: 1, y: 1 },
      { type: 'drag', from: { x: 1, y: 2 }, to: { x: 3, y: 4 } },
      { type: 'hotkey', keys: ['ctrl', 'a'] },
      { type: 'type', text: 'hello\n' },
      { type: 'scroll', x: 5, y: 5, direction: 'left', amount: 200 },
      { type: 'navigate', url: 'http://127.0.0.1/' },
      { type: 'open_url', url: 'http://127.0.0.1/' },
      { type: 'navigate_back' },
      { type: 'wait', ms: 10 },
      { type: 'press', key: 'enter' },
      { type: 'keydown', key: 'shift' },
      { type: 'keyup', key: 'shift' },
    ];
    for (const action of actions) {
      assert.equal(actionSchema.safeParse(action).success, true, JSON.stringify(action));
    }
  });

  it('rejects unknown keys, negative coordinates and empty batches', () => {
    assert.equal(actionSchema.safeParse({ type: 'click', x: 1, y: 1, extra: 1 }).success, false);
    assert.equal(actionSchema.safeParse({ type: 'click', x: -1, y: 1 }).success, false);
    assert.equal(actionSchema.safeParse({ type: 'teleport', x: 1, y: 1 }).success, false);
    assert.equal(actionsRequestSchema.safeParse({ actions: [] }).success, false);
  });

  it('lists the points an action touches', () => {
    assert.deepEqual(actionPoints({ type: 'drag', from: { x: 1, y: 2 }, to: { x: 3, y: 4 } }), [
      { x: 1, y: 2 },
      { x: 3, y: 4 },
    ]);
    assert.deepEqual(actionPoints({ type: 'navigate_back' }), []);
  });
});
