// anthropic-computer-use: every computer-tool action of a Claude reply → Clawdie's actions, a
// refusal with a note, or an unusable reply; the end of a task; xdotool key names.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { anthropicComputerUseProfile as profile } from '../../../../controlplane/src/agent/profiles/anthropic-computer-use.js';
import { xdotoolChords } from '../../../../controlplane/src/agent/profiles/anthropic-xdotool-keys.js';
import type { ParsedReply } from '../../../../controlplane/src/agent/profiles/profile-types.js';
import { computerCall, message } from './anthropic-computer-use-helpers.js';

function read(input: Record<string, unknown>): ParsedReply {
  const { parsed } = profile.readReply(message([computerCall('toolu_1', input)]));
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
  return parsed.reply;
}

function names(reply: ParsedReply): string[] {
  return reply.actions.map((action) => action.name);
}

describe('anthropic-computer-use replies', () => {
  it('maps each pointer action with its coordinate in image pixels', () => {
    const cases: [string, string][] = [
      ['left_click', 'click'],
      ['right_click', 'right_single'],
      ['double_click', 'left_double'],
      ['mouse_move', 'hover'],
    ];
    for (const [action, name] of cases) {
      const reply = read({ action, coordinate: [640, 401] });
      assert.equal(reply.actions.length, 1, action);
      assert.equal(reply.actions[0]?.name, name);
      assert.deepEqual(reply.actions[0]?.start, { x: 640, y: 401 });
      assert.equal(reply.actions[0]?.args.action, action);
      assert.equal(reply.actions[0]?.args.coordinate, '[640,401]');
    }
  });

  it('maps left_click_drag from start_coordinate to coordinate', () => {
    const reply = read({
      action: 'left_click_drag',
      start_coordinate: [10, 20],
      coordinate: [300, 40],
    });
    assert.equal(reply.actions[0]?.name, 'drag');
    assert.deepEqual(reply.actions[0]?.start, { x: 10, y: 20 });
    assert.deepEqual(reply.actions[0]?.end, { x: 300, y: 40 });
  });

  it('holds the keys of a click with text: press, click, release in reverse', () => {
    const reply = read({ action: 'left_click', coordinate: [5, 6], text: 'ctrl+shift' });
    assert.deepEqual(
      reply.actions.map((action) => [action.name, action.args.key ?? '']),
      [
        ['press', 'ctrl'],
        ['press', 'shift'],
        ['click', ''],
        ['release', 'shift'],
        ['release', 'ctrl'],
      ],
    );
  });

  it('maps key (xdotool chords, one hotkey each), type, wait and screenshot', () => {
    const keys = read({ action: 'key', text: 'ctrl+s Return' });
    assert.deepEqual(
      keys.actions.map((action) => [action.name, action.args.key]),
      [
        ['hotkey', 'ctrl s'],
        ['hotkey', 'return'],
      ],
    );
    const typed = read({ action: 'type', text: 'hello\n' });
    assert.deepEqual([typed.actions[0]?.name, typed.actions[0]?.args.content], ['type', 'hello\n']);
    assert.deepEqual(names(read({ action: 'wait', duration: 2 })), ['wait']);
    assert.deepEqual(names(read({ action: 'screenshot' })), ['screenshot']);
  });

  it('scrolls scroll_amount wheel clicks of 100 CSS px, at the coordinate when given', () => {
    const at = read({
      action: 'scroll',
      coordinate: [100, 200],
      scroll_direction: 'down',
      scroll_amount: 3,
    });
    assert.equal(at.actions[0]?.name, 'scroll');
    assert.equal(at.actions[0]?.args.direction, 'down');
    assert.equal(at.actions[0]?.args.amount, '300');
    assert.deepEqual(at.actions[0]?.start, { x: 100, y: 200 });
    const centre = read({ action: 'scroll', scroll_direction: 'left', scroll_amount: 1 });
    assert.equal(centre.actions[0]?.start, undefined);
    assert.equal(centre.actions[0]?.args.amount, '100');
  });

  it('refuses what Clawdie cannot do, with a note, never silently', () => {
    for (const action of [
      'triple_click',
      'middle_click',
      'hold_key',
      'left_mouse_down',
      'left_mouse_up',
      'zoom',
      'cursor_position',
    ]) {
      const reply = read({
        action,
        coordinate: [1, 1],
        text: 'a',
        duration: 1,
        region: [0, 0, 9, 9],
      });
      assert.deepEqual(reply.actions, [], action);
      assert.equal(reply.refused.length, 1, action);
      assert.equal(reply.refused[0]?.name, action);
      assert.match(reply.refused[0]?.note ?? '', new RegExp(action));
    }
    const bare = read({ action: 'left_click' });
    assert.deepEqual(bare.actions, []);
    assert.match(bare.refused[0]?.note ?? '', /needs coordinate/);
  });

  it('runs the other calls of a reply when one is refused', () => {
    const { parsed } = profile.readReply(
      message([
        computerCall('toolu_1', { action: 'triple_click', coordinate: [1, 2] }),
        computerCall('toolu_2', { action: 'left_click', coordinate: [3, 4] }),
      ]),
    );
    assert.ok(parsed.ok);
    assert.deepEqual(names(parsed.reply), ['click']);
    assert.deepEqual(
      parsed.reply.refused.map((entry) => entry.name),
      ['triple_click'],
    );
  });

  it('maps the browser tools navigate, go_back and call_user', () => {
    const { parsed } = profile.readReply(
      message([
        { type: 'tool_use', id: 'a', name: 'navigate', input: { url: 'https://example.com/' } },
        { type: 'tool_use', id: 'b', name: 'go_back', input: {} },
        { type: 'tool_use', id: 'c', name: 'call_user', input: { reason: 'log in, please' } },
      ]),
    );
    assert.ok(parsed.ok);
    assert.deepEqual(
      parsed.reply.actions.map((action) => [action.name, action.args.content ?? '']),
      [
        ['navigate', 'https://example.com/'],
        ['navigate_back', ''],
        ['call_user', 'log in, please'],
      ],
    );
  });

  it('ends the task on a reply without a tool call, its text the answer', () => {
    const { turn, parsed } = profile.readReply(
      message([{ type: 'text', text: 'The price is 12 EUR.' }], 'end_turn'),
    );
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.reply.actions, [
      { name: 'finished', args: { content: 'The price is 12 EUR.' } },
    ]);
    assert.deepEqual(parsed.reply.safety, []);
    assert.equal(turn.text, 'The price is 12 EUR.');
  });

  it('hands a refusal stop to the user', () => {
    const { parsed } = profile.readReply(
      message([{ type: 'text', text: 'I cannot help.' }], 'refusal'),
    );
    assert.ok(parsed.ok);
    assert.equal(parsed.reply.actions[0]?.name, 'call_user');
    assert.match(parsed.reply.actions[0]?.args.content ?? '', /declined.*I cannot help/);
  });

  it('says why a reply is unusable', () => {
    const cases: [unknown[], string, RegExp][] = [
      [[], 'end_turn', /neither text nor a tool call/],
      [[{ type: 'text', text: 'thinking…' }], 'max_tokens', /max_tokens/],
      [[computerCall('t', { coordinate: [1, 2] })], 'tool_use', /action is missing/],
      [[computerCall('t', { action: 'type' })], 'tool_use', /type needs input.text/],
      [
        [computerCall('t', { action: 'scroll', scroll_direction: 'sideways' })],
        'tool_use',
        /scroll_direction/,
      ],
      [[computerCall('t', { action: 'key', text: '  ' })], 'tool_use', /key needs/],
      [
        [computerCall('t', { action: 'left_click', coordinate: [1, 2], text: 'ctrl a' })],
        'tool_use',
        /one key combination/,
      ],
      [
        [{ type: 'tool_use', name: 'computer', input: { action: 'screenshot' } }],
        'tool_use',
        /no id/,
      ],
    ];
    for (const [content, stop, pattern] of cases) {
      const { parsed } = profile.readReply(message(content, stop));
      assert.equal(parsed.ok, false, JSON.stringify(content));
      if (!parsed.ok) assert.match(parsed.message, pattern);
    }
    const { parsed } = profile.readReply({ text: '', body: { type: 'message' } });
    assert.equal(parsed.ok, false);
    assert.match(profile.unusableNote('x'), /could not be used: x/);
  });

  it('keeps the reply content verbatim as the turn', () => {
    const content = [
      { type: 'text', text: 'Clicking.' },
      computerCall('toolu_9', { action: 'left_click', coordinate: [1, 2] }),
    ];
    const { turn } = profile.readReply(message(content));
    assert.deepEqual(turn.raw, content);
    assert.match(turn.text, /Clicking\.\ncomputer \{"action":"left_click"/);
  });
});

describe('xdotool key names', () => {
  it('maps keysyms onto the jail-service key names', () => {
    assert.deepEqual(xdotoolChords('ctrl+s'), [['ctrl', 's']]);
    assert.deepEqual(xdotoolChords('Return'), [['return']]);
    assert.deepEqual(xdotoolChords('alt+Tab'), [['alt', 'tab']]);
    assert.deepEqual(xdotoolChords('Control_L+Shift_R+t'), [['ctrl', 'shift', 't']]);
    assert.deepEqual(xdotoolChords('Page_Down Prior Next'), [
      ['pagedown'],
      ['pageup'],
      ['pagedown'],
    ]);
    assert.deepEqual(xdotoolChords('KP_0 KP_Enter super+grave'), [
      ['0'],
      ['enter'],
      ['super', 'backquote'],
    ]);
    assert.deepEqual(xdotoolChords('ctrl++ +'), [['ctrl', 'plus'], ['plus']]);
    assert.equal(xdotoolChords(''), null);
    assert.equal(xdotoolChords('a b c d e f g h i'), null);
  });
});
