// Round trip over real HTTP: the openai-computer-use profile and the Responses API wire against
// the fake Responses API (test/support/golden). A synthetic screenshot with a magenta marker at a
// known CSS spot is resized by the profile's image policy; the click the fake answers, mapped by
// hand to CSS pixels, must land within 2 px of the marker. The second step ends the task; the
// safety variant must be acknowledged before the fake accepts the next request.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { openAiResponsesWire as wire } from '../../../../controlplane/src/agent/model/wires/openai-responses.js';
import {
  openAiComputerToolProfile,
  openAiComputerUseProfile,
} from '../../../../controlplane/src/agent/profiles/openai-computer-use.js';
import type {
  HistoryTurn,
  ModelProfile,
  ProfileImage,
  SafetySignal,
} from '../../../../controlplane/src/agent/profiles/profile-types.js';
import {
  type OpenAiResponsesGoldenOptions,
  startOpenAiResponsesGolden,
} from '../../../support/golden/fake-openai-responses-server.js';
import type { GoldenServer } from '../../../support/golden/golden-types.js';

const KEY = 'sk-golden';
const fields = { model: 'computer-use-preview', maxTokens: 1024, temperature: 0, stream: false };

/** A plain screen of `css × dpr` device pixels with a 24 CSS px magenta square centred at `at`. */
async function screenshot(
  css: { width: number; height: number },
  dpr: number,
  at: { x: number; y: number },
) {
  const side = 24 * dpr;
  const square = await sharp({
    create: { width: side, height: side, channels: 3, background: '#ff00ff' },
  })
    .png()
    .toBuffer();
  return sharp({
    create: {
      width: css.width * dpr,
      height: css.height * dpr,
      channels: 3,
      background: '#f0f0f0',
    },
  })
    .composite([
      {
        input: square,
        left: Math.round(at.x * dpr - side / 2),
        top: Math.round(at.y * dpr - side / 2),
      },
    ])
    .jpeg({ quality: 90 })
    .toBuffer();
}

async function prepare(
  profile: ModelProfile,
  jpeg: Buffer,
  device: { width: number; height: number },
): Promise<ProfileImage> {
  const size = profile.image.size(device.width, device.height);
  const data = await sharp(jpeg)
    .resize(size.width, size.height, { fit: 'fill' })
    .jpeg({ quality: 80 })
    .toBuffer();
  const base64 = data.toString('base64');
  return {
    dataUrl: `data:image/jpeg;base64,${base64}`,
    base64,
    mediaType: 'image/jpeg',
    ...size,
    bytes: data.length,
  };
}

async function step(server: GoldenServer, profile: ModelProfile, history: HistoryTurn[]) {
  const body = profile.buildRequest({
    instruction: 'Click the magenta square',
    history,
    actionSpace: 'browser',
    imageWindow: profile.image.maxImages,
  });
  const response = await fetch(wire.endpoint(server.url, fields.model), {
    method: 'POST',
    headers: wire.headers(KEY),
    body: JSON.stringify(wire.body(body, fields)),
  });
  const json: unknown = await response.json();
  if (response.status !== 200) return { ok: false, status: response.status, json } as const;
  const read = wire.read(json);
  assert.ok(read.ok, read.ok ? '' : read.message);
  return { ok: true, status: 200, json, read, ...profile.readReply(read.reply) } as const;
}

const observe = (image: ProfileImage, acknowledged: SafetySignal[] = []): HistoryTurn => ({
  kind: 'observation',
  image,
  notes: [],
  acknowledged,
});

async function roundTrip(
  profile: ModelProfile,
  css: { width: number; height: number },
  dpr: number,
  options: OpenAiResponsesGoldenOptions = {},
) {
  const server = await startOpenAiResponsesGolden({ apiKey: KEY, ...options });
  try {
    const marker = { x: Math.round(css.width * 0.713), y: Math.round(css.height * 0.387) };
    const device = { width: css.width * dpr, height: css.height * dpr };
    const image = await prepare(profile, await screenshot(css, dpr, marker), device);
    const first = await step(server, profile, [observe(image)]);
    assert.equal(first.status, 200, JSON.stringify(first.json));
    assert.ok(first.ok && first.parsed.ok);
    const [click] = first.parsed.reply.actions;
    assert.equal(click?.name, 'click');
    const start = click?.start ?? { x: Number.NaN, y: Number.NaN };
    const landed = {
      x: (start.x / image.width) * css.width,
      y: (start.y / image.height) * css.height,
    };
    assert.ok(
      Math.abs(landed.x - marker.x) <= 2 && Math.abs(landed.y - marker.y) <= 2,
      `landed ${JSON.stringify(landed)}, marker ${JSON.stringify(marker)}`,
    );
    return { server, image, first, reply: { kind: 'reply', turn: first.turn } as HistoryTurn };
  } catch (error) {
    await server.close();
    throw error;
  }
}

const screens = [
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
];
for (const profile of [openAiComputerUseProfile, openAiComputerToolProfile]) {
  const tool = profile === openAiComputerUseProfile ? 'computer_use_preview' : 'computer';
  describe(`openai-computer-use (${tool}) against the fake Responses API`, () => {
    for (const css of screens) {
      for (const dpr of [1, 2]) {
        it(`clicks the marker at ${css.width}x${css.height} DPR ${dpr}, then finishes`, async () => {
          const { server, image, reply } = await roundTrip(profile, css, dpr);
          try {
            const second = await step(server, profile, [observe(image), reply, observe(image)]);
            assert.equal(second.status, 200, JSON.stringify(second.json));
            assert.ok(second.ok && second.parsed.ok);
            assert.deepEqual(second.parsed.reply.actions, [
              { name: 'finished', args: { content: 'Clicked the marker. Done.' } },
            ]);
            assert.ok(second.read.usage && second.read.usage.promptTokens > 0);
            assert.deepEqual(server.requests[0]?.image, {
              width: image.width,
              height: image.height,
              format: 'jpeg',
            });
          } finally {
            await server.close();
          }
        });
      }
    }
  });
}

describe('the fake Responses API safety check', () => {
  const check = {
    id: 'sc_1',
    code: 'malicious_instructions',
    message: 'The page asks for something else.',
  };
  it('is a safety signal, and the next request must acknowledge it', async () => {
    const { server, image, first, reply } = await roundTrip(
      openAiComputerUseProfile,
      screens[0] as { width: number; height: number },
      1,
      { safetyCheck: check },
    );
    try {
      assert.ok(first.ok && first.parsed.ok);
      const [signal] = first.parsed.reply.safety;
      assert.deepEqual(signal, { code: check.code, message: check.message, ack: check });
      const unacked = await step(server, openAiComputerUseProfile, [
        observe(image),
        reply,
        observe(image),
      ]);
      assert.equal(unacked.status, 400);
      const acked = await step(server, openAiComputerUseProfile, [
        observe(image),
        reply,
        observe(image, [signal as SafetySignal]),
      ]);
      assert.equal(acked.status, 200, JSON.stringify(acked.json));
    } finally {
      await server.close();
    }
  });
});

describe('the fake Responses API validates like the real one', () => {
  let server: GoldenServer;
  let image: ProfileImage;
  before(async () => {
    server = await startOpenAiResponsesGolden({ apiKey: KEY });
    image = await prepare(
      openAiComputerUseProfile,
      await screenshot({ width: 640, height: 400 }, 1, { x: 100, y: 100 }),
      { width: 640, height: 400 },
    );
  });
  after(() => server.close());
  const send = (body: unknown, key = KEY, path = '/responses') =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: wire.headers(key),
      body: JSON.stringify(body),
    });
  const valid = () =>
    wire.body(
      openAiComputerUseProfile.buildRequest({
        instruction: 'x',
        history: [observe(image)],
        actionSpace: 'browser',
        imageWindow: 3,
      }),
      fields,
    );

  it('accepts the profile request', async () => {
    assert.equal((await send(valid())).status, 200);
  });
  it('rejects a wrong key, a wrong path, no tool, no truncation, no image', async () => {
    assert.equal((await send(valid(), 'sk-wrong')).status, 401);
    assert.equal((await send(valid(), KEY, '/chat/completions')).status, 404);
    assert.equal((await send({ ...valid(), tools: [] })).status, 400);
    assert.equal((await send({ ...valid(), truncation: 'disabled' })).status, 400);
    assert.equal(
      (
        await send({
          ...valid(),
          input: [{ role: 'user', content: [{ type: 'input_text', text: 'x' }] }],
        })
      ).status,
      400,
    );
  });
  it('rejects an unanswered computer_call and echoed ids or bare reasoning under store false', async () => {
    const body = valid();
    const input = body.input as unknown[];
    const call = {
      type: 'computer_call',
      call_id: 'c1',
      action: { type: 'wait' },
      pending_safety_checks: [],
      status: 'completed',
    };
    const output = {
      type: 'computer_call_output',
      call_id: 'c1',
      output: { type: 'computer_screenshot', image_url: image.dataUrl },
    };
    assert.equal((await send({ ...body, input: [...input, call, output] })).status, 200);
    assert.equal((await send({ ...body, input: [...input, call] })).status, 400);
    const reasoning = { type: 'reasoning', summary: [] };
    assert.equal((await send({ ...body, input: [...input, reasoning, call, output] })).status, 400);
    assert.equal(
      (await send({ ...body, input: [...input, { ...call, id: 'cu_1' }, output] })).status,
      400,
    );
  });
});
