import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeKey, resolveKeys, splitChord } from '../../jail-service/src/keys.js';

describe('jail-service key names', () => {
  it('normalises the names models write, case-insensitively', () => {
    const expected: Record<string, string> = {
      ctrl: 'Control',
      CONTROL: 'Control',
      cmd: 'Meta',
      command: 'Meta',
      meta: 'Meta',
      win: 'Meta',
      super: 'Meta',
      alt: 'Alt',
      option: 'Alt',
      Shift: 'Shift',
      enter: 'Enter',
      return: 'Enter',
      esc: 'Escape',
      Escape: 'Escape',
      space: 'Space',
      tab: 'Tab',
      backspace: 'Backspace',
      delete: 'Delete',
      del: 'Delete',
      up: 'ArrowUp',
      ArrowDown: 'ArrowDown',
      left: 'ArrowLeft',
      arrowright: 'ArrowRight',
      home: 'Home',
      end: 'End',
      pageup: 'PageUp',
      PageDown: 'PageDown',
      insert: 'Insert',
      f1: 'F1',
      F12: 'F12',
      a: 'KeyA',
      Z: 'KeyZ',
      '7': 'Digit7',
      '/': '/',
      ',': ',',
      '+': '+',
      plus: '+',
    };
    for (const [name, key] of Object.entries(expected)) {
      assert.equal(normalizeKey(name), key, name);
    }
  });

  it('returns undefined for unknown names', () => {
    for (const name of ['hyper', 'f13', 'f0', 'é', 'ctrl+', '', 'leftctrl']) {
      assert.equal(normalizeKey(name), undefined, name);
    }
  });

  it('splits chords written as one string', () => {
    assert.deepEqual(splitChord(['ctrl+shift+t']), ['ctrl', 'shift', 't']);
    assert.deepEqual(splitChord(['ctrl c']), ['ctrl', 'c']);
    assert.deepEqual(splitChord(['ctrl', '+']), ['ctrl', '+']);
    assert.deepEqual(splitChord(['ctrl++']), ['ctrl', '+']);
  });

  it('resolves a chord or lists every unknown name', () => {
    assert.deepEqual(resolveKeys(['Ctrl', 'a']), { ok: true, keys: ['Control', 'KeyA'] });
    assert.deepEqual(resolveKeys(['cmd+shift+z']), { ok: true, keys: ['Meta', 'Shift', 'KeyZ'] });
    assert.deepEqual(resolveKeys(['hyper', 'a', 'mega']), {
      ok: false,
      unknown: ['hyper', 'mega'],
    });
  });
});
