// The qwen3-vl profile: the same tool as qwen2.5-vl (shared code, tested there) with Qwen3-VL's
// additions, a declared 1000×1000 screen with points relative 0–1000, smart_resize factor 32, and
// a round trip over real HTTP to the golden fake ending with `answer` (or `terminate`).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { qwen3VlProfile as profile } from '../../../../controlplane/src/agent/profiles/qwen3-vl.js';
import { startChatToolsGolden } from '../../../support/golden/fake-chat-tools-server.js';
import type { GoldenServer } from '../../../support/golden/golden-types.js';
import {
  fixedImage,
  input,
  observation,
  postChat,
  profileImage,
  replyTurn,
  screenshotWithMarker,
  wireReply,
} from './qwen-test-kit.js';

const golden = (name: string) =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as unknown;

const call = (args: Record<string, unknown>) =>
  `<tool_call>\n${JSON.stringify({ name: 'computer_use', arguments: args })}\n</tool_call>`;

function read(content: string) {
  const { parsed } = profile.readReply(wireReply(content));
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
  return parsed.reply;
}

describe('qwen3-vl requests', () => {
  const first = observation(fixedImage(1280, 800, 'one'));
  const reply = profile.readReply(
    wireReply('The square is at the right.', [
      { name: 'computer_use', arguments: '{"action":"left_click","coordinate":[713,646]}' },
    ]),
  ).turn;
  const second = observation(fixedImage(1280, 800, 'two'), ['The page scrolled by itself.']);
  const one = profile.buildRequest(input([first]));
  const two = profile.buildRequest(input([first, replyTurn(reply), second]));

  it('matches the golden bodies of a two-step history, the second starting with the first', () => {
    assert.deepEqual(one, golden('qwen3-vl-request-1.json'));
    assert.deepEqual(two, golden('qwen3-vl-request-2.json'));
    assert.equal(
      JSON.stringify(two).slice(0, JSON.stringify(one).length - 2),
      JSON.stringify(one).slice(0, -2),
    );
  });

  it('declares the cookbook screen of 1000×1000 and the Qwen3-VL actions', () => {
    const system = (one.messages as { content: string }[])[0]?.content ?? '';
    assert.match(system, /The screen's resolution is 1000x1000\./);
    assert.match(system, /"hscroll", "wait", "terminate", "answer", "visit_url", "history_back"\]/);
    assert.match(system, /Required only by `action=type` and `action=answer`\./);
    assert.doesNotMatch(system, /triple_click|middle_click/);
    assert.deepEqual(profile.coordinates, { kind: 'relative', divisor: 1000 });
  });
});

describe('qwen3-vl replies', () => {
  it('maps hscroll, answer, and answer followed by terminate as one ending', () => {
    assert.deepEqual(
      read(call({ action: 'hscroll', pixels: 40 })).actions[0]?.args.direction,
      'right',
    );
    assert.deepEqual(
      read(call({ action: 'hscroll', pixels: -40 })).actions[0]?.args.direction,
      'left',
    );
    const answered = read(
      `Found it.\n${call({ action: 'answer', text: '42 lamps' })}\n${call({ action: 'terminate', status: 'success' })}`,
    );
    assert.deepEqual(
      answered.actions.map((action) => [action.name, action.args.content]),
      [['finished', '42 lamps']],
    );
    assert.deepEqual(answered.refused, []);
    const clicked = read(call({ action: 'left_click', coordinate: [500, 1000] }));
    assert.deepEqual(clicked.actions[0]?.start, { x: 500, y: 1000 });
  });

  it('refuses triple_click with a note that offers what works', () => {
    const reply = read(call({ action: 'triple_click', coordinate: [1, 2] }));
    assert.deepEqual(reply.actions, []);
    assert.match(reply.refused[0]?.note ?? '', /double_click/);
  });
});

describe('qwen3-vl image policy (smart_resize, factor 32, ≤ 2048 tokens)', () => {
  it('sizes the usual viewports and their DPR-2 doubles to multiples of 32', () => {
    const sizes = [
      [1280, 800, 1280, 800],
      [1366, 768, 1376, 768],
      [1920, 1080, 1920, 1088],
      [2560, 1600, 1824, 1120],
      [2732, 1536, 1920, 1056],
      [3840, 2160, 1920, 1056],
    ];
    for (const [width, height, w, h] of sizes) {
      assert.deepEqual(profile.image.size(width as number, height as number), {
        width: w,
        height: h,
      });
    }
  });
});

describe('qwen3-vl against the golden fake (real HTTP)', () => {
  let toolCalls: GoldenServer;
  let inline: GoldenServer;
  before(async () => {
    toolCalls = await startChatToolsGolden({ convention: 'qwen3', apiKey: 'golden-key' });
    inline = await startChatToolsGolden({
      convention: 'qwen3',
      apiKey: 'golden-key',
      inline: true,
      ending: 'terminate',
    });
  });
  after(() => Promise.all([toolCalls.close(), inline.close()]));

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 1366, height: 768 },
    { width: 1920, height: 1080 },
  ]) {
    for (const dpr of [1, 2]) {
      it(`clicks within 2 CSS px of the marker at ${viewport.width}×${viewport.height} DPR ${dpr}, then ends`, async () => {
        const marker = {
          x: Math.round(viewport.width * 0.29),
          y: Math.round(viewport.height * 0.41) + 0.5,
        };
        const image = await profileImage(
          profile,
          await screenshotWithMarker(viewport, dpr, marker),
        );
        const server = dpr === 1 ? toolCalls : inline;
        const first = [observation(image)];
        const reply = await postChat(server.url, profile.buildRequest(input(first)), dpr === 1);
        const { turn, parsed } = profile.readReply(reply);
        assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
        const start = parsed.reply.actions[0]?.start;
        assert.ok(start);
        const css = { x: (start.x / 1000) * viewport.width, y: (start.y / 1000) * viewport.height };
        assert.ok(
          Math.abs(css.x - marker.x) <= 2 && Math.abs(css.y - marker.y) <= 2,
          JSON.stringify({ css, marker }),
        );

        const history = [...first, replyTurn(turn), observation(image)];
        const ending = await postChat(server.url, profile.buildRequest(input(history)), dpr === 1);
        const end = profile.readReply(ending).parsed;
        assert.ok(end.ok);
        // `answer` carries the answer; `terminate` alone ends with the thought as the answer.
        const expected = dpr === 1 ? 'clicked' : 'The marker was clicked; the task is done.';
        assert.deepEqual(
          end.reply.actions.map((action) => [action.name, action.args.content]),
          [['finished', expected]],
        );
      });
    }
  }
});
