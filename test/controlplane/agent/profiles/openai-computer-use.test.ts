// The openai-computer-use profile: request bodies (golden JSON, append-only history, safety
// acknowledgements, the image window), the image policy, and the Responses API wire.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openAiResponsesWire } from '../../../../controlplane/src/agent/model/wires/openai-responses.js';
import {
  openAiComputerToolProfile,
  openAiComputerUseProfile,
} from '../../../../controlplane/src/agent/profiles/openai-computer-use.js';
import type {
  HistoryTurn,
  ProfileImage,
  SafetySignal,
} from '../../../../controlplane/src/agent/profiles/profile-types.js';

const image = (tag: string, width = 1229, height = 768): ProfileImage => ({
  dataUrl: `data:image/jpeg;base64,${tag}`,
  base64: tag,
  mediaType: 'image/jpeg',
  width,
  height,
  bytes: tag.length,
});
const observe = (
  tag: string,
  notes: string[] = [],
  acknowledged: SafetySignal[] = [],
): HistoryTurn => ({ kind: 'observation', image: image(tag), notes, acknowledged });
const clickReply = {
  id: 'resp_1',
  status: 'completed',
  output: [
    {
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: 'Click it.' }],
      encrypted_content: 'enc1',
    },
    {
      type: 'computer_call',
      id: 'cu_1',
      call_id: 'call_1',
      action: { type: 'click', button: 'left', x: 100, y: 200 },
      pending_safety_checks: [
        { id: 'sc_1', code: 'malicious_instructions', message: 'Check the page.' },
      ],
      status: 'completed',
    },
  ],
};
const replyTurn = (body: unknown): HistoryTurn => {
  const read = openAiResponsesWire.read(body);
  assert.ok(read.ok);
  return { kind: 'reply', turn: openAiComputerUseProfile.readReply(read.reply).turn };
};
const request = (history: HistoryTurn[], imageWindow = 3, profile = openAiComputerUseProfile) =>
  profile.buildRequest({
    instruction: 'Open the report',
    history,
    actionSpace: 'browser',
    imageWindow,
  });
const wireBody = (body: Record<string, unknown>) =>
  JSON.stringify(
    openAiResponsesWire.body(body, {
      model: 'computer-use-preview',
      maxTokens: 1024,
      temperature: 0,
      stream: false,
    }),
  );

describe('openai-computer-use requests', () => {
  const first = request([observe('AAA')]);
  const ack = {
    code: 'malicious_instructions',
    message: 'Check the page.',
    ack: { id: 'sc_1', code: 'malicious_instructions', message: 'Check the page.' },
  };
  const second = request([
    observe('AAA'),
    replyTurn(clickReply),
    observe('BBB', ['The click ran.'], [ack]),
  ]);

  it('declares the preview tool with the display = the image sent, stateless, input last', () => {
    assert.deepEqual(first, {
      instructions:
        'You operate a web browser for the user through the computer tool. Carry out the task yourself; do not ask for confirmation. When the task is done, or cannot be done, stop calling the computer tool and reply with a message that states the result.',
      tools: [
        {
          type: 'computer_use_preview',
          display_width: 1229,
          display_height: 768,
          environment: 'browser',
        },
      ],
      reasoning: { summary: 'concise' },
      truncation: 'auto',
      store: false,
      include: ['reasoning.encrypted_content'],
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Open the report' },
            { type: 'input_image', image_url: 'data:image/jpeg;base64,AAA' },
          ],
        },
      ],
    });
  });

  it('echoes the reply without ids and answers its call with the screenshot and the acknowledgement', () => {
    assert.deepEqual((second.input as unknown[]).slice(1), [
      {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: 'Click it.' }],
        encrypted_content: 'enc1',
      },
      {
        type: 'computer_call',
        call_id: 'call_1',
        action: { type: 'click', button: 'left', x: 100, y: 200 },
        pending_safety_checks: [
          { id: 'sc_1', code: 'malicious_instructions', message: 'Check the page.' },
        ],
        status: 'completed',
      },
      {
        type: 'computer_call_output',
        call_id: 'call_1',
        output: { type: 'computer_screenshot', image_url: 'data:image/jpeg;base64,BBB' },
        acknowledged_safety_checks: [
          { id: 'sc_1', code: 'malicious_instructions', message: 'Check the page.' },
        ],
      },
      { role: 'user', content: [{ type: 'input_text', text: 'The click ran.' }] },
    ]);
  });

  it('keeps the earlier request as a byte prefix of the next (transport fields first, input last)', () => {
    const one = wireBody(first);
    const two = wireBody(second);
    assert.ok(one.endsWith(']}'));
    assert.ok(two.startsWith(one.slice(0, -2)), 'the second body starts with the first one');
  });

  it('leaves out the acknowledgement when none was approved', () => {
    const plain = request([observe('AAA'), replyTurn(clickReply), observe('BBB')]);
    const output = (plain.input as Record<string, unknown>[]).find(
      (i) => i.type === 'computer_call_output',
    );
    assert.equal(output?.acknowledged_safety_checks, undefined);
  });

  it('drops screenshots outside the window and keeps those turns as text', () => {
    const history = [
      observe('AAA'),
      replyTurn(clickReply),
      observe('BBB', ['ran']),
      replyTurn(clickReply),
      observe('CCC'),
    ];
    const body = request(history, 1);
    const input = body.input as Record<string, unknown>[];
    assert.deepEqual(input.slice(0, 3), [
      { role: 'user', content: [{ type: 'input_text', text: 'Open the report' }] },
      {
        role: 'assistant',
        content: 'Click it.\ncomputer_call {"type":"click","button":"left","x":100,"y":200}',
      },
      { role: 'user', content: [{ type: 'input_text', text: 'ran' }] },
    ]);
    assert.equal(JSON.stringify(body).match(/data:image/g)?.length, 1);
    assert.ok(JSON.stringify(input.at(-1)).includes('CCC'));
  });

  it('declares the GA computer tool and reads screenshots at detail original', () => {
    const body = request(
      [observe('AAA'), replyTurn(clickReply), observe('BBB')],
      3,
      openAiComputerToolProfile,
    );
    assert.deepEqual(body.tools, [{ type: 'computer' }]);
    assert.deepEqual(body.reasoning, { summary: 'auto' });
    const text = JSON.stringify(body.input);
    assert.ok(
      text.includes(
        '"output":{"type":"computer_screenshot","image_url":"data:image/jpeg;base64,BBB","detail":"original"}',
      ),
    );
  });
});

describe('openai-computer-use image policy', () => {
  const cases: [number, number, string, string][] = [
    [1280, 800, '1229x768', '1280x800'],
    [1366, 768, '1366x768', '1366x768'],
    [1920, 1080, '1365x768', '1600x900'],
    [2560, 1600, '1229x768', '1440x900'],
    [2732, 1536, '1366x768', '1600x900'],
    [3840, 2160, '1365x768', '1600x900'],
  ];
  for (const [width, height, preview, ga] of cases) {
    it(`${width}x${height} → preview ${preview}, GA ${ga}`, () => {
      const size = (s: { width: number; height: number }) => `${s.width}x${s.height}`;
      assert.equal(size(openAiComputerUseProfile.image.size(width, height)), preview);
      assert.equal(size(openAiComputerToolProfile.image.size(width, height)), ga);
    });
  }
  it('keeps portrait screens within the caps', () => {
    assert.deepEqual(openAiComputerUseProfile.image.size(800, 1280), { width: 768, height: 1229 });
  });
});

describe('openai-responses wire', () => {
  it('posts to {base}/responses with a bearer key and no temperature', () => {
    assert.equal(
      openAiResponsesWire.endpoint('https://api.example/v1/', 'm'),
      'https://api.example/v1/responses',
    );
    assert.deepEqual(openAiResponsesWire.headers('sk-1'), {
      'content-type': 'application/json',
      authorization: 'Bearer sk-1',
    });
    assert.deepEqual(openAiResponsesWire.headers(null), { 'content-type': 'application/json' });
    const body = openAiResponsesWire.body(
      { input: [] },
      { model: 'm', maxTokens: 99, temperature: 0.2, stream: true },
    );
    assert.deepEqual(body, { model: 'm', max_output_tokens: 99, input: [] });
  });

  it('reads usage, a token-limit stop as length, and an empty reply', () => {
    const read = openAiResponsesWire.read({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      output: [{ type: 'reasoning', summary: [] }],
      usage: { input_tokens: 1200, output_tokens: 1024 },
    });
    assert.ok(read.ok);
    assert.equal(read.finishReason, 'length');
    assert.equal(read.empty, true);
    assert.deepEqual(read.usage, { promptTokens: 1200, completionTokens: 1024 });
    const done = openAiResponsesWire.read({
      status: 'completed',
      output: clickReply.output,
      usage: null,
    });
    assert.ok(done.ok);
    assert.equal(done.finishReason, 'stop');
    assert.equal(done.empty, false);
    assert.equal(done.usage, null);
  });

  it('refuses bodies that are not a Response', () => {
    assert.equal(openAiResponsesWire.read([]).ok, false);
    assert.equal(openAiResponsesWire.read({ status: 'completed' }).ok, false);
    const failed = openAiResponsesWire.read({
      status: 'failed',
      error: { code: 'server_error', message: 'boom' },
      output: [],
    });
    assert.deepEqual(failed, { ok: false, message: 'the response failed: boom' });
  });
});
