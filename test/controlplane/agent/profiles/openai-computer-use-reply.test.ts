// Reading OpenAI computer-use replies: every action object → the internal action or a refusal,
// batched GA `actions`, the ending message, safety checks, and malformed replies.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openAiComputerUseProfile } from '../../../../controlplane/src/agent/profiles/openai-computer-use.js';
import type { ParsedReply } from '../../../../controlplane/src/agent/profiles/profile-types.js';

const call = (action: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'computer_call',
  id: 'cu_1',
  call_id: 'call_1',
  action,
  pending_safety_checks: [],
  status: 'completed',
  ...extra,
});
const read = (output: unknown[], extra: Record<string, unknown> = {}) =>
  openAiComputerUseProfile.readReply({ text: '', body: { status: 'completed', output, ...extra } });
const parsed = (output: unknown[]): ParsedReply => {
  const result = read(output).parsed;
  assert.ok(result.ok, result.ok ? '' : result.message);
  return result.reply;
};
/** name(start→end) key=value… of each action, without the trace-only args. */
const brief = (reply: ParsedReply) =>
  reply.actions.map((a) => {
    const points = [a.start, a.end]
      .filter(Boolean)
      .map((p) => `${p?.x},${p?.y}`)
      .join('→');
    const keep = ['key', 'content', 'direction', 'amount'].filter((k) => a.args[k] !== undefined);
    return [a.name + (points ? `(${points})` : ''), ...keep.map((k) => `${k}=${a.args[k]}`)].join(
      ' ',
    );
  });

describe('openai-computer-use replies', () => {
  const cases: [string, unknown, string[]][] = [
    ['left click', { type: 'click', button: 'left', x: 10, y: 20 }, ['click(10,20)']],
    ['click without a button', { type: 'click', x: 10, y: 20 }, ['click(10,20)']],
    ['right click', { type: 'click', button: 'right', x: 10, y: 20 }, ['right_single(10,20)']],
    ['back button', { type: 'click', button: 'back', x: 1, y: 2 }, ['navigate_back']],
    ['double click', { type: 'double_click', x: 5, y: 6, keys: null }, ['left_double(5,6)']],
    ['move', { type: 'move', x: 7, y: 8 }, ['hover(7,8)']],
    [
      'drag',
      {
        type: 'drag',
        path: [
          { x: 1, y: 2 },
          { x: 3, y: 4 },
          { x: 9, y: 9 },
        ],
      },
      ['drag(1,2→9,9)'],
    ],
    [
      'keypress',
      { type: 'keypress', keys: ['CTRL', 'SHIFT', 'ArrowLeft'] },
      ['hotkey key=ctrl shift arrowleft'],
    ],
    ['keypress enter', { type: 'keypress', keys: ['ENTER'] }, ['hotkey key=enter']],
    [
      'keypress odd names',
      { type: 'keypress', keys: ['PAGE_DOWN', ' ', '+'] },
      ['hotkey key=pagedown space plus'],
    ],
    [
      'scroll down',
      { type: 'scroll', x: 50, y: 60, scroll_x: 0, scroll_y: 300 },
      ['scroll(50,60) direction=down amount=300'],
    ],
    [
      'scroll up',
      { type: 'scroll', x: 50, y: 60, scroll_x: 0, scroll_y: -120 },
      ['scroll(50,60) direction=up amount=120'],
    ],
    [
      'scroll both axes',
      { type: 'scroll', x: 5, y: 6, scroll_x: -40, scroll_y: 80 },
      ['scroll(5,6) direction=down amount=80', 'scroll(5,6) direction=left amount=40'],
    ],
    ['type', { type: 'type', text: 'hello\n' }, ['type content=hello\n']],
    ['wait', { type: 'wait' }, ['wait']],
    ['screenshot', { type: 'screenshot' }, ['screenshot']],
    [
      'shift click',
      { type: 'click', button: 'left', x: 1, y: 1, keys: ['SHIFT'] },
      ['press key=shift', 'click(1,1)', 'release key=shift'],
    ],
  ];
  for (const [title, action, expected] of cases) {
    it(`maps ${title}`, () => {
      const reply = parsed([call(action)]);
      assert.deepEqual(brief(reply), expected);
      assert.deepEqual(reply.refused, []);
    });
  }

  it('keeps the raw provider arguments in args', () => {
    const [action] = parsed([call({ type: 'click', button: 'right', x: 3, y: 4 })]).actions;
    assert.deepEqual(action?.args, {
      call_id: 'call_1',
      openai_action: 'click',
      button: 'right',
      x: '3',
      y: '4',
    });
  });

  const refusals: [string, unknown][] = [
    ['click(button=wheel)', { type: 'click', button: 'wheel', x: 1, y: 1 }],
    ['click(button=forward)', { type: 'click', button: 'forward', x: 1, y: 1 }],
    ['zoom', { type: 'zoom', x: 1, y: 1 }],
    ['scroll', { type: 'scroll', x: 1, y: 1, scroll_x: 0, scroll_y: 0 }],
  ];
  for (const [name, action] of refusals) {
    it(`refuses ${name} with a note`, () => {
      const reply = parsed([call(action)]);
      assert.deepEqual(reply.actions, []);
      assert.equal(reply.refused.length, 1);
      assert.equal(reply.refused[0]?.name, name);
      assert.ok((reply.refused[0]?.note ?? '').length > 10);
    });
  }

  it('reads the GA batched actions in order', () => {
    const batched = call(undefined, {
      actions: [
        { type: 'click', button: 'left', x: 405, y: 157 },
        { type: 'type', text: 'penguin' },
      ],
    });
    assert.deepEqual(brief(parsed([batched])), ['click(405,157)', 'type content=penguin']);
  });

  it('ends with the message text when no computer_call comes', () => {
    const reply = parsed([
      { type: 'reasoning', id: 'rs', summary: [{ type: 'summary_text', text: 'All set.' }] },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'The report is open.' }],
      },
    ]);
    assert.deepEqual(reply.actions, [
      { name: 'finished', args: { content: 'The report is open.' } },
    ]);
    assert.equal(reply.thought, 'All set.');
  });

  it('turns a refusal message into call_user', () => {
    const reply = parsed([
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'refusal', refusal: 'I cannot help.' }],
      },
    ]);
    assert.deepEqual(reply.actions, [{ name: 'call_user', args: { content: 'I cannot help.' } }]);
  });

  it('turns pending safety checks into safety signals that carry the check', () => {
    const check = { id: 'sc_9', code: 'irrelevant_domain', message: 'Not the task domain.' };
    const reply = parsed([
      call({ type: 'click', button: 'left', x: 1, y: 1 }, { pending_safety_checks: [check] }),
    ]);
    assert.deepEqual(reply.safety, [
      { code: 'irrelevant_domain', message: 'Not the task domain.', ack: check },
    ]);
  });

  const malformed: [string, unknown[], RegExp][] = [
    ['click without x', [call({ type: 'click', button: 'left', y: 1 })], /numeric x and y/],
    ['drag with one point', [call({ type: 'drag', path: [{ x: 1, y: 1 }] })], /at least two/],
    ['keypress without keys', [call({ type: 'keypress', keys: [] })], /non-empty array/],
    ['type without text', [call({ type: 'type' })], /string `text`/],
    ['call without action', [call(undefined)], /no `action`/],
    ['call without call_id', [call({ type: 'wait' }, { call_id: undefined })], /call_id/],
    [
      'nothing but reasoning',
      [{ type: 'reasoning', summary: [] }],
      /neither a computer_call nor a message/,
    ],
  ];
  for (const [title, output, pattern] of malformed) {
    it(`rejects ${title}`, () => {
      const result = read(output).parsed;
      assert.equal(result.ok, false);
      assert.match(result.ok ? '' : result.message, pattern);
    });
  }

  it('says a cut-off reply was cut off', () => {
    const result = read([{ type: 'reasoning', summary: [] }], {
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
    }).parsed;
    assert.deepEqual(result, {
      ok: false,
      message: 'the reply was cut off (max_output_tokens) before a computer_call or a message',
    });
  });

  it('rejects a body without output and keeps the items verbatim otherwise', () => {
    const none = openAiComputerUseProfile.readReply({ text: '', body: { status: 'completed' } });
    assert.deepEqual(none.parsed, { ok: false, message: 'the reply has no `output` array' });
    const output = [call({ type: 'wait' })];
    assert.deepEqual(read(output).turn.raw, output);
  });
});
