// Replies of the Qwen VL profiles (shared code, through qwen2.5-vl): both tool-call forms, the
// history text, every computer_use action and Fara extra mapped or refused with a note, and
// malformed replies told apart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ParsedReply } from '../../../../controlplane/src/agent/profiles/profile-types.js';
import { qwen25VlProfile as profile } from '../../../../controlplane/src/agent/profiles/qwen2.5-vl.js';
import { wireReply } from './qwen-test-kit.js';

function parsed(
  content: string,
  toolCalls: { name: string; arguments: string }[] = [],
): ParsedReply {
  const { parsed: result } = profile.readReply(wireReply(content, toolCalls));
  assert.ok(result.ok, result.ok ? '' : result.message);
  return result.reply;
}

const call = (args: Record<string, unknown>) =>
  `<tool_call>\n${JSON.stringify({ name: 'computer_use', arguments: args })}\n</tool_call>`;

describe('qwen2.5-vl replies', () => {
  it('reads a tool_calls reply and the same call written inline, the thought outside the block', () => {
    const args = { action: 'left_click', coordinate: [913, 517] };
    const structured = parsed('I click the square.', [
      { name: 'computer_use', arguments: JSON.stringify(args) },
    ]);
    const inline = parsed(`I click the square.\n${call(args)}`);
    for (const reply of [structured, inline]) {
      assert.equal(reply.thought, 'I click the square.');
      assert.deepEqual(reply.actions, [
        {
          name: 'click',
          args: { action: 'left_click', coordinate: '[913,517]' },
          start: { x: 913, y: 517 },
        },
      ]);
      assert.deepEqual(reply.refused, []);
    }
  });

  it('keeps the reply as inline text for the history, a tool_calls reply rendered as qwen-agent does', () => {
    const { turn } = profile.readReply(
      wireReply('Thinking.', [{ name: 'computer_use', arguments: '{"action":"wait","time":2}' }]),
    );
    assert.deepEqual(turn.raw, {
      content:
        'Thinking.\n<tool_call>\n{"name": "computer_use", "arguments": {"action": "wait", "time": 2}}\n</tool_call>',
      calls: 1,
    });
  });

  it('maps every computer_use action and the Fara extras', () => {
    const cases: [Record<string, unknown>, unknown][] = [
      [
        { action: 'right_click', coordinate: [5, 6] },
        [{ name: 'right_single', start: { x: 5, y: 6 } }],
      ],
      [
        { action: 'double_click', coordinate: [5, 6] },
        [{ name: 'left_double', start: { x: 5, y: 6 } }],
      ],
      [
        { action: 'mouse_move', coordinate: ['7', '8'] },
        [{ name: 'hover', start: { x: 7, y: 8 } }],
      ],
      [{ action: 'type', text: 'lamp' }, [{ name: 'type', content: 'lamp' }]],
      [
        { action: 'key', keys: ['Control', 'Shift', 'T'] },
        [{ name: 'hotkey', key: 'control shift t' }],
      ],
      [{ action: 'key', keys: ['Enter'] }, [{ name: 'hotkey', key: 'enter' }]],
      [{ action: 'scroll', pixels: -300 }, [{ name: 'scroll', direction: 'down' }]],
      [
        { action: 'scroll', pixels: 5, coordinate: [9, 9] },
        [{ name: 'scroll', direction: 'up', start: { x: 9, y: 9 } }],
      ],
      [{ action: 'wait', time: 2 }, [{ name: 'wait' }]],
      [
        { action: 'visit_url', url: 'example.com/a' },
        [{ name: 'navigate', content: 'https://example.com/a' }],
      ],
      [
        { action: 'visit_url', url: 'http://x.test' },
        [{ name: 'navigate', content: 'http://x.test' }],
      ],
      [{ action: 'history_back' }, [{ name: 'navigate_back' }]],
      [
        {
          action: 'type',
          text: 'lamp',
          coordinate: [4, 4],
          delete_existing_text: true,
          press_enter: true,
        },
        [
          { name: 'click', start: { x: 4, y: 4 } },
          { name: 'hotkey', key: 'ctrl a' },
          { name: 'type', content: 'lamp\n' },
        ],
      ],
      [{ action: 'terminate', status: 'success' }, [{ name: 'finished', content: 'All done.' }]],
      [
        { action: 'terminate', status: 'failure' },
        [{ name: 'call_user', content: 'The model ended the task as failed: All done.' }],
      ],
    ];
    for (const [args, expected] of cases) {
      const reply = parsed(`All done.\n${call(args)}`);
      const got = reply.actions.map((action) => ({
        name: action.name,
        ...(action.args.content === undefined ? {} : { content: action.args.content }),
        ...(action.args.key === undefined ? {} : { key: action.args.key }),
        ...(action.args.direction === undefined ? {} : { direction: action.args.direction }),
        ...(action.start === undefined ? {} : { start: action.start }),
      }));
      assert.deepEqual(got, expected, JSON.stringify(args));
      assert.equal(
        reply.actions[0]?.args.action,
        args.action,
        'the raw arguments stay for the trace',
      );
    }
  });

  it('drags from the mouse_move of the same reply, and refuses a drag whose start is unknown', () => {
    const both = parsed(
      `${call({ action: 'mouse_move', coordinate: [10, 20] })}\n${call({ action: 'left_click_drag', coordinate: [30, 40] })}`,
    );
    assert.deepEqual(both.actions.at(-1)?.start, { x: 10, y: 20 });
    assert.deepEqual(both.actions.at(-1)?.end, { x: 30, y: 40 });
    const alone = parsed(call({ action: 'left_click_drag', coordinate: [30, 40] }));
    assert.deepEqual(alone.actions, []);
    assert.match(alone.refused[0]?.note ?? '', /mouse_move to the start point/);
  });

  it('refuses what Clawdie cannot do, with a note, and keeps the rest', () => {
    for (const args of [
      { action: 'middle_click', coordinate: [1, 1] },
      { action: 'triple_click', coordinate: [1, 1] },
      { action: 'web_search', query: 'lamps' },
      { action: 'pause_and_memorize_fact', fact: 'x' },
      { action: 'refresh' },
      { action: 'zoom' },
      { action: 'left_click' },
      { action: 'scroll', pixels: 0 },
      { action: 'visit_url', url: 'cheap lamps' },
    ]) {
      const reply = parsed(`${call(args)}\n${call({ action: 'wait' })}`);
      assert.equal(reply.refused.length, 1, JSON.stringify(args));
      assert.equal(reply.refused[0]?.name, args.action);
      assert.ok((reply.refused[0]?.note.length ?? 0) > 10);
      assert.deepEqual(
        reply.actions.map((action) => action.name),
        ['wait'],
      );
    }
    const other = parsed(`<tool_call>\n{"name": "browser", "arguments": {}}\n</tool_call>`);
    assert.deepEqual(other.refused, [
      { name: 'browser', note: 'There is no function browser; call computer_use.' },
    ]);
  });

  it('refuses calls after terminate rather than running them', () => {
    const reply = parsed(
      `${call({ action: 'terminate', status: 'success' })}\n${call({ action: 'wait' })}`,
    );
    assert.deepEqual(
      reply.actions.map((action) => action.name),
      ['finished'],
    );
    assert.equal(reply.refused[0]?.name, 'wait');
  });

  it('says why a malformed reply cannot be used', () => {
    const cases: [string, { name: string; arguments: string }[], RegExp][] = [
      ['I will click the square.', [], /no <tool_call>/],
      [
        '<tool_call>\n{"name": "computer_use", "arguments": {"action": "left_click"</tool_call>',
        [],
        /not JSON/,
      ],
      ['<tool_call>\n{"arguments": {}}\n</tool_call>', [], /no "name"/],
      ['', [{ name: 'computer_use', arguments: '{"action":' }], /are not JSON/],
      ['', [{ name: 'computer_use', arguments: '[1]' }], /not a JSON object/],
    ];
    for (const [content, toolCalls, message] of cases) {
      const { parsed: result } = profile.readReply(wireReply(content, toolCalls));
      assert.equal(result.ok, false, content);
      if (!result.ok) assert.match(result.message, message);
    }
    assert.match(profile.unusableNote('no call'), /<tool_call>/);
  });
});
