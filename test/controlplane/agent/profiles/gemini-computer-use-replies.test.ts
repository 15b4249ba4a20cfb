import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_ACTIONS_PER_REPLY } from '../../../../controlplane/src/agent/loop/reply-limits.js';
import { geminiComputerUseProfile as profile } from '../../../../controlplane/src/agent/profiles/gemini-computer-use.js';
import type { ModelAction } from '../../../../controlplane/src/agent/uitars/types.js';

function read(parts: unknown[], finishReason = 'STOP') {
  const body = { candidates: [{ content: { role: 'model', parts }, finishReason, index: 0 }] };
  return profile.readReply({ text: '', body });
}

function actionsOf(name: string, args: Record<string, unknown> = {}) {
  const parsed = read([{ functionCall: { name, args } }]).parsed;
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
  return parsed.reply;
}

/** Name, the planner's arguments (not the raw copies) and the points. */
function shape(action: ModelAction) {
  const { name, start, end } = action;
  const keys = ['content', 'key', 'direction', 'magnitude', 'screen_fraction'] as const;
  const args = Object.fromEntries(
    keys.flatMap((k) => (action.args[k] === undefined ? [] : [[k, action.args[k]]])),
  );
  return { name, args, ...(start ? { start } : {}), ...(end ? { end } : {}) };
}

const shapes = (name: string, args: Record<string, unknown> = {}) =>
  actionsOf(name, args).actions.map(shape);

describe('gemini-computer-use replies', () => {
  it('maps the pointer functions onto the 0–999 grid points', () => {
    assert.deepEqual(shapes('click_at', { x: 500, y: 250 }), [
      { name: 'click', args: {}, start: { x: 500, y: 250 } },
    ]);
    assert.deepEqual(shapes('hover_at', { x: 1, y: 999 }), [
      { name: 'hover', args: {}, start: { x: 1, y: 999 } },
    ]);
    assert.deepEqual(
      shapes('drag_and_drop', { x: 10, y: 20, destination_x: 30, destination_y: 40 }),
      [{ name: 'drag', args: {}, start: { x: 10, y: 20 }, end: { x: 30, y: 40 } }],
    );
  });

  it('keeps the raw call in args for the trace', () => {
    const [action] = actionsOf('click_at', { x: 500, y: 250 }).actions;
    assert.deepEqual(action?.args, { function: 'click_at', x: '500', y: '250' });
  });

  it('type_text_at: click, clear (ctrl a, backspace), type, Enter as a trailing newline', () => {
    const at = { x: 400, y: 250 };
    assert.deepEqual(shapes('type_text_at', { ...at, text: 'hi', press_enter: true }), [
      { name: 'click', args: {}, start: at },
      { name: 'hotkey', args: { key: 'ctrl a' } },
      { name: 'hotkey', args: { key: 'backspace' } },
      { name: 'type', args: { content: 'hi\n' } },
    ]);
    assert.deepEqual(shapes('type_text_at', { ...at, text: 'hi', clear_before_typing: false }), [
      { name: 'click', args: {}, start: at },
      { name: 'type', args: { content: 'hi' } },
    ]);
  });

  it('scrolls: the document at the centre, scroll_at at its point', () => {
    assert.deepEqual(shapes('scroll_document', { direction: 'down' }), [
      { name: 'scroll', args: { direction: 'down' } },
    ]);
    assert.deepEqual(shapes('scroll_at', { x: 500, y: 600, direction: 'UP', magnitude: 400 }), [
      {
        name: 'scroll',
        args: { direction: 'up', magnitude: '400', screen_fraction: '0.4' },
        start: { x: 500, y: 600 },
      },
    ]);
  });

  it('navigation, waiting and the browser itself', () => {
    assert.deepEqual(shapes('navigate', { url: 'https://example.com/' }), [
      { name: 'navigate', args: { content: 'https://example.com/' } },
    ]);
    assert.deepEqual(shapes('search'), [
      { name: 'navigate', args: { content: 'https://www.google.com/' } },
    ]);
    assert.deepEqual(shapes('go_back'), [{ name: 'navigate_back', args: {} }]);
    assert.deepEqual(shapes('wait_5_seconds'), [{ name: 'wait', args: {} }]);
    assert.deepEqual(shapes('open_web_browser'), [{ name: 'screenshot', args: {} }]);
  });

  it('key_combination: Gemini key names → the jail-service chord', () => {
    assert.deepEqual(shapes('key_combination', { keys: 'Control+A' }), [
      { name: 'hotkey', args: { key: 'ctrl a' } },
    ]);
    assert.deepEqual(shapes('key_combination', { keys: 'Enter' }), [
      { name: 'hotkey', args: { key: 'enter' } },
    ]);
    assert.deepEqual(shapes('key_combination', { keys: 'Control+Shift+T' }), [
      { name: 'hotkey', args: { key: 'ctrl shift t' } },
    ]);
    assert.deepEqual(shapes('key_combination', { keys: 'Control++' }), [
      { name: 'hotkey', args: { key: 'ctrl plus' } },
    ]);
  });

  it('refuses go_forward and unknown functions with a note, never drops them', () => {
    const forward = actionsOf('go_forward');
    assert.deepEqual(forward.actions, []);
    assert.equal(forward.refused[0]?.name, 'go_forward');
    assert.match(forward.refused[0]?.note ?? '', /cannot go forward.*navigate/);
    const triple = actionsOf('triple_click', { x: 1, y: 1 });
    assert.equal(triple.refused[0]?.name, 'triple_click');
    assert.match(triple.refused[0]?.note ?? '', /click_at/);
  });

  it('parallel calls become one plan; five type_text_at calls fit the per-reply cap', () => {
    const call = { functionCall: { name: 'type_text_at', args: { x: 1, y: 1, text: 'a' } } };
    const parsed = read([{ text: 'Filling the form.' }, call, call, call, call, call]).parsed;
    assert.ok(parsed.ok);
    assert.equal(parsed.reply.thought, 'Filling the form.');
    assert.equal(parsed.reply.actions.length, 20);
    assert.ok(parsed.reply.actions.length <= MAX_ACTIONS_PER_REPLY);
  });

  it('a reply without a function call finishes with its text', () => {
    const parsed = read([{ text: 'The price is 42 €.' }]).parsed;
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.reply.actions, [
      { name: 'finished', args: { content: 'The price is 42 €.' } },
    ]);
  });

  it('malformed replies are ok: false with a message for the model', () => {
    const cases: [unknown[], string, RegExp][] = [
      [
        [{ functionCall: { name: 'click_at', args: { x: 5 } } }],
        'STOP',
        /click_at needs numbers x and y/,
      ],
      [[{ functionCall: { name: 'type_text_at', args: { x: 5, y: 5 } } }], 'STOP', /needs text/],
      [
        [{ functionCall: { name: 'scroll_at', args: { x: 5, y: 5, direction: 'in' } } }],
        'STOP',
        /direction/,
      ],
      [[{ functionCall: { name: 'navigate', args: {} } }], 'STOP', /needs url/],
      [[{ functionCall: { name: 'key_combination', args: { keys: '' } } }], 'STOP', /needs keys/],
      [[], 'MALFORMED_FUNCTION_CALL', /malformed/],
      [[{ text: 'I will now' }], 'MAX_TOKENS', /token limit/],
      [[], 'STOP', /neither a function call nor text/],
    ];
    for (const [parts, finish, message] of cases) {
      const parsed = read(parts, finish).parsed;
      assert.equal(parsed.ok, false, JSON.stringify(parts));
      assert.match(parsed.ok ? '' : parsed.message, message);
    }
    const none = profile.readReply({
      text: '',
      body: { promptFeedback: { blockReason: 'SAFETY' } },
    });
    assert.equal(none.parsed.ok, false);
  });

  it('keeps the model turn verbatim for the next request, and a readable text', () => {
    const parts = [
      { text: 'Clicking.', thoughtSignature: 'c2ln' },
      { functionCall: { name: 'click_at', args: { x: 1, y: 2 } } },
    ];
    const { turn } = read(parts);
    assert.deepEqual(turn.raw, { role: 'model', parts });
    assert.equal(turn.text, 'Clicking.\nclick_at({"x":1,"y":2})');
  });
});
