// anthropic-computer-use: the request bodies (golden JSON of a 2-step history, append-only bytes,
// tool results, the image window), the image policy, and the anthropic-messages wire.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { anthropicMessagesWire as wire } from '../../../../controlplane/src/agent/model/wires/anthropic-messages.js';
import { anthropicComputerUseProfile as profile } from '../../../../controlplane/src/agent/profiles/anthropic-computer-use.js';
import type { HistoryTurn } from '../../../../controlplane/src/agent/profiles/profile-types.js';
import { computerCall, fakeImage, message, observation } from './anthropic-computer-use-helpers.js';

const FIELDS = { model: 'claude-test', maxTokens: 1024, temperature: 0, stream: false };
const CLICK = [
  { type: 'text', text: 'Clicking Search.' },
  computerCall('toolu_01', { action: 'left_click', coordinate: [683, 384] }),
];

function body(history: HistoryTurn[], imageWindow = 20) {
  const profileBody = profile.buildRequest({
    instruction: 'Search for lamps',
    history,
    actionSpace: 'browser',
    imageWindow,
  });
  return wire.body(profileBody, FIELDS);
}

function twoSteps(notes: string[] = []): [HistoryTurn[], HistoryTurn[]] {
  const first: HistoryTurn[] = [observation(fakeImage(1366, 768, 'SU1HMQ=='))];
  const reply = profile.readReply(message(CLICK)).turn;
  const second: HistoryTurn[] = [
    ...first,
    { kind: 'reply', turn: reply },
    observation(fakeImage(1366, 768, 'SU1HMg=='), notes),
  ];
  return [first, second];
}

const image = (data: string) => ({
  type: 'image',
  source: { type: 'base64', media_type: 'image/jpeg', data },
});

describe('anthropic-computer-use requests', () => {
  it('builds the golden first and second request', () => {
    const [first, second] = twoSteps();
    const one = body(first) as Record<string, unknown>;
    assert.deepEqual(Object.keys(one), [
      'model',
      'max_tokens',
      'temperature',
      'system',
      'tools',
      'cache_control',
      'messages',
    ]);
    assert.equal(one.model, 'claude-test');
    assert.equal(one.max_tokens, 1024);
    assert.deepEqual(one.cache_control, { type: 'ephemeral' });
    const tools = one.tools as Record<string, unknown>[];
    assert.deepEqual(tools[0], {
      type: 'computer_20251124',
      name: 'computer',
      display_width_px: 1366,
      display_height_px: 768,
    });
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['computer', 'navigate', 'go_back', 'call_user'],
    );
    assert.match(JSON.stringify(one.system), /navigate/);
    assert.deepEqual(one.messages, [
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: 'Task: Search for lamps\n\nThe screenshot below is the screen now.',
          },
          image('SU1HMQ=='),
        ],
      },
    ]);
    const two = body(second) as Record<string, unknown>;
    assert.deepEqual((two.messages as unknown[]).slice(1), [
      { role: 'assistant', content: CLICK },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_01',
            content: [{ type: 'text', text: 'Done.' }, image('SU1HMg==')],
          },
        ],
      },
    ]);
  });

  it('starts each request with the bytes of the one before (all but its closing brackets)', () => {
    const [first, second] = twoSteps();
    const one = JSON.stringify(body(first));
    const two = JSON.stringify(body(second));
    assert.ok(one.endsWith(']}'));
    assert.ok(two.startsWith(one.slice(0, -2)), 'the second request does not extend the first');
    assert.deepEqual(JSON.stringify(body(second)), two, 'not deterministic');
  });

  it('answers every tool_use, a refused one with its note as an error, notes with the screen', () => {
    const content = [
      computerCall('toolu_a', { action: 'triple_click', coordinate: [1, 2] }),
      computerCall('toolu_b', { action: 'left_click', coordinate: [3, 4] }),
    ];
    const parsed = profile.readReply(message(content));
    assert.ok(parsed.parsed.ok);
    const refusal = parsed.parsed.reply.refused[0]?.note ?? '';
    const history: HistoryTurn[] = [
      observation(fakeImage(1280, 800)),
      { kind: 'reply', turn: parsed.turn },
      observation(fakeImage(1280, 800, 'TkVX'), [refusal, 'The click failed: timeout.']),
    ];
    const messages = (body(history) as { messages: { content: unknown[] }[] }).messages;
    assert.deepEqual(messages[2]?.content, [
      {
        type: 'tool_result',
        tool_use_id: 'toolu_a',
        is_error: true,
        content: [{ type: 'text', text: refusal }],
      },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_b',
        content: [
          { type: 'text', text: 'Done.' },
          image('TkVX'),
          { type: 'text', text: 'The click failed: timeout.' },
        ],
      },
    ]);
  });

  it('answers the calls of an unusable reply as not run', () => {
    const content = [
      computerCall('toolu_a', { action: 'left_click', coordinate: [3, 4] }),
      computerCall('toolu_b', { action: 'type' }),
    ];
    const history: HistoryTurn[] = [
      observation(fakeImage(1280, 800)),
      { kind: 'reply', turn: profile.readReply(message(content)).turn },
      observation(fakeImage(1280, 800), ['unusable']),
    ];
    const results =
      (body(history) as { messages: { content: Record<string, unknown>[] }[] }).messages[2]
        ?.content ?? [];
    assert.deepEqual(
      results.map((result) => [result.tool_use_id, result.is_error]),
      [
        ['toolu_a', true],
        ['toolu_b', true],
      ],
    );
    assert.match(
      JSON.stringify(results[0]),
      /Not run: another call was unusable \(type needs input.text\)/,
    );
  });

  it('drops older screenshots in chunks of half the window, never the newest', () => {
    const history: HistoryTurn[] = [];
    const counts: number[] = [];
    for (let step = 0; step < 9; step++) {
      if (step > 0) {
        const turn = profile.readReply(
          message([computerCall(`t${step}`, { action: 'screenshot' })]),
        ).turn;
        history.push({ kind: 'reply', turn });
      }
      history.push(observation(fakeImage(1280, 800, `SU1H${step}A==`)));
      const json = JSON.stringify(body(history, 4));
      counts.push(json.split('"type":"image"').length - 1);
      assert.ok(json.includes(`SU1H${step}A==`), 'the newest screenshot is missing');
    }
    assert.deepEqual(counts, [1, 2, 3, 4, 3, 4, 3, 4, 3]);
  });
});

describe('anthropic-computer-use image policy', () => {
  const cases: [number, number, number, number][] = [
    [1280, 800, 1280, 800],
    [1366, 768, 1366, 768],
    [1920, 1080, 1366, 768],
    [2560, 1600, 1280, 800],
    [2732, 1536, 1366, 768],
    [3840, 2160, 1366, 768],
    [1024, 768, 1024, 768],
    [2048, 1536, 1024, 768],
    [1000, 2000, 758, 1516],
  ];
  it('scales to the reference targets, else within 1568 px and 1.15 MP', () => {
    for (const [width, height, w, h] of cases) {
      assert.deepEqual(
        profile.image.size(width, height),
        { width: w, height: h },
        `${width}×${height}`,
      );
      assert.ok(Math.max(w, h) <= 1568 && w * h <= 1_150_000);
    }
    assert.equal(profile.coordinates.kind, 'image-pixels');
  });
});

describe('anthropic-messages wire', () => {
  it('posts to {base}/messages with the key, version and beta headers', () => {
    assert.equal(
      wire.endpoint('https://api.example.test/v1/', 'm'),
      'https://api.example.test/v1/messages',
    );
    assert.deepEqual(wire.headers('sk-test'), {
      'content-type': 'application/json',
      'anthropic-version': '2023-06-01',
      'anthropic-beta': 'computer-use-2025-11-24',
      'x-api-key': 'sk-test',
    });
    assert.equal(wire.headers(null)['x-api-key'], undefined);
    assert.equal(wire.streams, false);
  });

  it('reads text, stop reason, emptiness and usage with the cache counts', () => {
    const reply = message(CLICK).body as Record<string, unknown>;
    const read = wire.read({
      ...reply,
      usage: {
        input_tokens: 100,
        output_tokens: 20,
        cache_creation_input_tokens: 30,
        cache_read_input_tokens: 500,
      },
    });
    assert.ok(read.ok);
    assert.equal(read.reply.text, 'Clicking Search.');
    assert.equal(read.finishReason, 'tool_use');
    assert.equal(read.empty, false);
    assert.deepEqual(read.usage, { promptTokens: 630, completionTokens: 20 });
    const cut = wire.read({ ...reply, content: [], stop_reason: 'max_tokens' });
    assert.ok(cut.ok);
    assert.equal(cut.finishReason, 'length');
    assert.equal(cut.empty, true);
    assert.equal(
      wire.read({ type: 'error', error: { type: 'overloaded_error', message: 'busy' } }).ok,
      false,
    );
    assert.equal(wire.read({ type: 'message' }).ok, false);
  });
});
