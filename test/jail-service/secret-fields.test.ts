// Which input steps could take a secret out of its field (secret-fields.ts): Chromium's Linux copy
// and cut keys, with modifiers held in the same action or by an earlier `keydown`, and drags.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { movesText } from '../../jail-service/src/browser/secret-fields.js';
import { keySteps } from '../../jail-service/src/tools/action-steps.js';

const none = new Set<string>();
const chord = (...keys: string[]) => keySteps({ type: 'hotkey', keys });

describe('movesText', () => {
  it('counts the copy and cut chords, Meta as Ctrl', () => {
    for (const keys of [
      ['ctrl', 'c'],
      ['ctrl', 'x'],
      ['ctrl', 'C'],
      ['ctrl', 'shift', 'c'],
      ['ctrl', 'insert'],
      ['shift', 'delete'],
      ['meta', 'c'],
    ])
      assert.equal(movesText(none, chord(...keys)), true, keys.join('+'));
  });

  it('leaves other chords and plain typing alone', () => {
    for (const keys of [['ctrl', 'a'], ['ctrl', 'v'], ['delete'], ['c'], ['shift', 'x']])
      assert.equal(movesText(none, chord(...keys)), false, keys.join('+'));
    assert.equal(movesText(none, [{ kind: 'type-text', text: 'cx' }]), false);
  });

  it('counts a key or a typed character while an earlier keydown holds Ctrl', () => {
    const held = new Set(['Control']);
    assert.equal(movesText(held, keySteps({ type: 'press', key: 'c' })), true);
    assert.equal(movesText(held, [{ kind: 'type-text', text: 'abc' }]), true);
    assert.equal(
      movesText(held, [
        { kind: 'key-up', key: 'Control' },
        { kind: 'type-text', text: 'c' },
      ]),
      false,
    );
  });

  it('counts a drag and a context menu, not left clicks', () => {
    const down = { kind: 'mouse-down', button: 'left', clickCount: 1 } as const;
    const up = { kind: 'mouse-up', button: 'left', clickCount: 1 } as const;
    const move = { kind: 'mouse-move', x: 1, y: 1 } as const;
    assert.equal(movesText(none, [move, down, move, up]), true);
    assert.equal(movesText(none, [move, down, up, down, up, move]), false);
    const right = { kind: 'mouse-down', button: 'right', clickCount: 1 } as const;
    assert.equal(movesText(none, [move, right]), true, 'a context menu');
    assert.equal(movesText(none, chord('contextmenu')), true, 'the menu key');
    assert.equal(movesText(none, chord('shift', 'f10')), true, 'Shift+F10');
  });
});
