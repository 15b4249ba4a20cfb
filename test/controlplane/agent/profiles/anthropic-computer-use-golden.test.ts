// anthropic-computer-use against the fake Messages API over real HTTP: a synthetic screenshot
// with the magenta marker at a known CSS spot, resized by the profile's image policy, sent by the
// profile + wire; the fake's left_click (in the declared display) mapped back by hand must land
// within 2 CSS px of the marker, at 1280×800, 1366×768, 1920×1080 and their DPR-2 doubles. The
// fake's end_turn reply then ends the task.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { anthropicMessagesWire as wire } from '../../../../controlplane/src/agent/model/wires/anthropic-messages.js';
import { anthropicComputerUseProfile as profile } from '../../../../controlplane/src/agent/profiles/anthropic-computer-use.js';
import type {
  HistoryTurn,
  ParsedReply,
  ProfileImage,
} from '../../../../controlplane/src/agent/profiles/profile-types.js';
import { startAnthropicMessagesGolden } from '../../../support/golden/fake-anthropic-messages-server.js';
import type { GoldenServer } from '../../../support/golden/golden-types.js';
import { testImages } from '../../../support/test-images.js';
import { observation } from './anthropic-computer-use-helpers.js';

const KEY = 'sk-ant-golden';
const MARKER_CSS = 24;

async function screenshot(
  css: { width: number; height: number },
  dpr: number,
  at: { x: number; y: number },
) {
  const size = Math.round(MARKER_CSS * dpr);
  const marker = await sharp({
    create: { width: size, height: size, channels: 3, background: { r: 255, g: 0, b: 255 } },
  })
    .png()
    .toBuffer();
  const device = await sharp({
    create: {
      width: css.width * dpr,
      height: css.height * dpr,
      channels: 3,
      background: { r: 236, g: 240, b: 244 },
    },
  })
    .composite([{ input: marker, left: Math.round(at.x * dpr), top: Math.round(at.y * dpr) }])
    .jpeg({ quality: 90 })
    .toBuffer();
  const target = profile.image.size(css.width * dpr, css.height * dpr);
  const jpeg = await testImages.resizeJpeg(device, { ...target, fit: 'fill', quality: 80 });
  const base64 = jpeg.toString('base64');
  const image: ProfileImage = {
    dataUrl: `data:image/jpeg;base64,${base64}`,
    base64,
    mediaType: 'image/jpeg',
    width: target.width,
    height: target.height,
    bytes: jpeg.length,
  };
  return image;
}

async function ask(server: GoldenServer, history: HistoryTurn[], key = KEY) {
  const request = profile.buildRequest({
    instruction: 'Click the magenta square.',
    history,
    actionSpace: 'browser',
    imageWindow: 20,
  });
  const response = await fetch(wire.endpoint(server.url, 'claude-golden'), {
    method: 'POST',
    headers: wire.headers(key),
    body: JSON.stringify(
      wire.body(request, {
        model: 'claude-golden',
        maxTokens: 1024,
        temperature: 0,
        stream: false,
      }),
    ),
  });
  return { status: response.status, json: (await response.json()) as unknown };
}

function parsedOf(json: unknown): {
  turn: ReturnType<typeof profile.readReply>['turn'];
  reply: ParsedReply;
} {
  const read = wire.read(json);
  assert.ok(read.ok, read.ok ? '' : read.message);
  const { turn, parsed } = profile.readReply(read.reply);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
  return { turn, reply: parsed.reply };
}

describe('anthropic-computer-use golden round trip', () => {
  const viewports = [
    { width: 1280, height: 800 },
    { width: 1366, height: 768 },
    { width: 1920, height: 1080 },
  ];
  for (const css of viewports) {
    for (const dpr of [1, 2]) {
      it(`lands on the marker at ${css.width}×${css.height} DPR ${dpr}`, async () => {
        const server = await startAnthropicMessagesGolden({ apiKey: KEY });
        try {
          const at = { x: Math.round(css.width * 0.63), y: Math.round(css.height * 0.41) };
          const centre = { x: at.x + MARKER_CSS / 2, y: at.y + MARKER_CSS / 2 };
          const first = await screenshot(css, dpr, at);
          const history: HistoryTurn[] = [observation(first)];
          const one = await ask(server, history);
          assert.equal(one.status, 200, JSON.stringify(one.json));
          const { turn, reply } = parsedOf(one.json);
          const click = reply.actions[0];
          assert.equal(click?.name, 'click');
          assert.ok(click.start);
          const landed = {
            x: (click.start.x / first.width) * css.width,
            y: (click.start.y / first.height) * css.height,
          };
          assert.ok(
            Math.abs(landed.x - centre.x) <= 2 && Math.abs(landed.y - centre.y) <= 2,
            `landed at ${JSON.stringify(landed)}, marker at ${JSON.stringify(centre)}`,
          );
          history.push({ kind: 'reply', turn }, observation(await screenshot(css, dpr, at)));
          const two = await ask(server, history);
          assert.equal(two.status, 200, JSON.stringify(two.json));
          assert.equal(parsedOf(two.json).reply.actions[0]?.name, 'finished');
          assert.equal(server.requests.length, 2);
          assert.deepEqual(server.requests[0]?.image, {
            width: first.width,
            height: first.height,
            format: 'jpeg',
          });
        } finally {
          await server.close();
        }
      });
    }
  }
});

describe('the fake Messages API refuses what the real one refuses', () => {
  let server: GoldenServer;
  let image: ProfileImage;
  before(async () => {
    server = await startAnthropicMessagesGolden({ apiKey: KEY });
    image = await screenshot({ width: 640, height: 400 }, 1, { x: 10, y: 10 });
  });
  after(() => server.close());

  async function post(body: unknown, headers: Record<string, string> = wire.headers(KEY)) {
    const response = await fetch(`${server.url}/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      json: (await response.json()) as { error?: { message: string } },
    };
  }

  function valid(): Record<string, unknown> {
    const request = profile.buildRequest({
      instruction: 'x',
      history: [observation(image)],
      actionSpace: 'browser',
      imageWindow: 5,
    });
    return wire.body(request, { model: 'm', maxTokens: 64, temperature: 0, stream: false });
  }

  it('checks the key, the version and the beta header', async () => {
    assert.equal((await ask(server, [observation(image)], 'wrong')).status, 401);
    const { 'anthropic-version': _version, ...noVersion } = wire.headers(KEY);
    assert.equal((await post(valid(), noVersion)).status, 400);
    const { 'anthropic-beta': _beta, ...noBeta } = wire.headers(KEY);
    assert.match((await post(valid(), noBeta)).json.error?.message ?? '', /needs the beta/);
  });

  it('checks the body: tool declaration, image, and answered tool_use ids', async () => {
    const noTool = { ...valid(), tools: [] };
    assert.match((await post(noTool)).json.error?.message ?? '', /computer tool/);
    const messages = valid().messages as { role: string; content: unknown }[];
    const noImage = {
      ...valid(),
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    };
    assert.match((await post(noImage)).json.error?.message ?? '', /no image/);
    const unanswered = {
      ...valid(),
      messages: [
        ...messages,
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'toolu_x', name: 'computer', input: { action: 'screenshot' } },
          ],
        },
        ...messages,
      ],
    };
    assert.match(
      (await post(unanswered)).json.error?.message ?? '',
      /without tool_result: toolu_x/,
    );
    assert.equal(server.requests.length, 0);
  });
});
