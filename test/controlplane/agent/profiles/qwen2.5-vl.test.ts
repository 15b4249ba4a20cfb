// The qwen2.5-vl profile: its requests (the cookbook's computer_use tool in a Hermes system prompt,
// stating the size of the image sent), the image policy, and a round trip over real HTTP to the
// golden fake whose click lands on the marker. Replies: qwen-replies.test.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { qwen25VlProfile as profile } from '../../../../controlplane/src/agent/profiles/qwen2.5-vl.js';
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

describe('qwen2.5-vl requests', () => {
  const first = observation(fixedImage(1288, 812, 'one'));
  const reply = profile.readReply(
    wireReply('The square is at the right.', [
      { name: 'computer_use', arguments: '{"action":"left_click","coordinate":[913,517]}' },
    ]),
  ).turn;
  const second = observation(fixedImage(1288, 812, 'two'), ['The page scrolled by itself.']);
  const one = profile.buildRequest(input([first]));
  const two = profile.buildRequest(input([first, replyTurn(reply), second]));

  it('matches the golden bodies of a two-step history', () => {
    assert.deepEqual(one, golden('qwen2.5-vl-request-1.json'));
    assert.deepEqual(two, golden('qwen2.5-vl-request-2.json'));
  });

  it('repeats the first request byte for byte at the start of the second', () => {
    const a = JSON.stringify(one);
    const b = JSON.stringify(two);
    assert.equal(b.slice(0, a.length - 2), a.slice(0, -2)); // all but the closing `]}`
  });

  it('declares computer_use in the system prompt with the size of the image sent, not in tools', () => {
    const system = (one.messages as { content: string }[])[0]?.content ?? '';
    assert.match(system, /^You are a helpful assistant\.\n\n# Tools\n/);
    assert.match(system, /The screen's resolution is 1288x812\./);
    assert.match(system, /"enum": \["key", "type", "mouse_move", "left_click", "left_click_drag"/);
    assert.match(system, /"visit_url", "history_back"\]/);
    assert.doesNotMatch(system, /middle_click/);
    assert.equal('tools' in one, false);
  });

  it('answers the call with a tool_response that carries the notes, and keeps only imageWindow images', () => {
    const user = (
      two.messages as { role: string; content: { type: string; text?: string }[] }[]
    ).at(-1);
    assert.equal(
      user?.content.at(-1)?.text,
      '<tool_response>\nThe page scrolled by itself.\n</tool_response>',
    );
    const windowed = profile.buildRequest(input([first, replyTurn(reply), second], 1));
    const images = (body: unknown) => JSON.stringify(body).match(/data:image\/jpeg/g)?.length;
    assert.equal(images(two), 2);
    assert.equal(images(windowed), 1);
    assert.match(JSON.stringify(windowed), /anBlZy10d28=/, 'the newest stays');
  });
});

describe('qwen2.5-vl image policy (smart_resize, factor 28, ≤ 2700 tokens)', () => {
  it('sizes the usual viewports and their DPR-2 doubles to multiples of 28', () => {
    const sizes = [
      [1280, 800, 1288, 812],
      [1366, 768, 1372, 756],
      [1920, 1080, 1932, 1092],
      [2560, 1600, 1820, 1148],
      [2732, 1536, 1932, 1064],
      [3840, 2160, 1932, 1064],
    ];
    for (const [width, height, w, h] of sizes) {
      assert.deepEqual(profile.image.size(width as number, height as number), {
        width: w,
        height: h,
      });
    }
    assert.equal(profile.image.maxImages, 3);
  });
});

describe('qwen2.5-vl against the golden fake (real HTTP)', () => {
  const servers: GoldenServer[] = [];
  let toolCalls: GoldenServer;
  let inline: GoldenServer;
  before(async () => {
    toolCalls = await startChatToolsGolden({ convention: 'qwen2.5', apiKey: 'golden-key' });
    inline = await startChatToolsGolden({
      convention: 'qwen2.5',
      apiKey: 'golden-key',
      inline: true,
    });
    servers.push(toolCalls, inline);
  });
  after(() => Promise.all(servers.map((server) => server.close())));

  const viewports = [
    { width: 1280, height: 800 },
    { width: 1366, height: 768 },
    { width: 1920, height: 1080 },
  ];
  for (const viewport of viewports) {
    for (const dpr of [1, 2]) {
      it(`clicks within 2 CSS px of the marker at ${viewport.width}×${viewport.height} DPR ${dpr}, then terminates`, async () => {
        const marker = {
          x: Math.round(viewport.width * 0.71) + 0.5,
          y: Math.round(viewport.height * 0.63),
        };
        const image = await profileImage(
          profile,
          await screenshotWithMarker(viewport, dpr, marker),
        );
        const server = dpr === 1 ? toolCalls : inline;
        const stream = viewport.width !== 1366;
        const first = [observation(image)];
        const reply = await postChat(server.url, profile.buildRequest(input(first)), stream);
        const { turn, parsed: result } = profile.readReply(reply);
        assert.ok(result.ok, result.ok ? '' : result.message);
        const start = result.reply.actions[0]?.start;
        assert.ok(start);
        const css = {
          x: (start.x / image.width) * viewport.width,
          y: (start.y / image.height) * viewport.height,
        };
        assert.ok(
          Math.abs(css.x - marker.x) <= 2 && Math.abs(css.y - marker.y) <= 2,
          JSON.stringify({ css, marker }),
        );

        const history = [...first, replyTurn(turn), observation(image)];
        const ending = await postChat(server.url, profile.buildRequest(input(history)), stream);
        const end = profile.readReply(ending).parsed;
        assert.ok(end.ok);
        assert.deepEqual(
          end.reply.actions.map((action) => action.name),
          ['finished'],
        );
      });
    }
  }

  it('rejects a request without the key or the tool declaration with 4xx', async () => {
    const image = fixedImage(1288, 812, 'x');
    await assert.rejects(
      postChat(toolCalls.url, profile.buildRequest(input([observation(image)])), false, 'wrong'),
      /HTTP 401/,
    );
    await assert.rejects(
      postChat(toolCalls.url, { messages: [{ role: 'user', content: 'hi' }] }, false),
      /HTTP 400.*system prompt/,
    );
  });
});
