// The profile and the wire over real HTTP against the fake Gemini API: a synthetic screenshot with
// the magenta marker at a known CSS spot, resized by the profile's image policy; the click the
// fake answers on the 0–999 grid, mapped by hand (x / 1000 × CSS width), must land on the marker.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { geminiGenerateContentWire as wire } from '../../../../controlplane/src/agent/model/wires/gemini-generate-content.js';
import { geminiComputerUseProfile as profile } from '../../../../controlplane/src/agent/profiles/gemini-computer-use.js';
import type {
  HistoryTurn,
  ProfileImage,
  SafetySignal,
} from '../../../../controlplane/src/agent/profiles/profile-types.js';
import { startGeminiGolden } from '../../../support/golden/fake-gemini-server.js';
import type { GoldenServer } from '../../../support/golden/golden-types.js';

const KEY = 'gemini-test-key';
const MODEL = 'gemini-2.5-computer-use-preview-10-2025';
const MARKER_CSS = 24;

/** A white screenshot of `css × dpr` device pixels with the marker at CSS (left, top), as the profile sends it. */
async function screenshot(
  css: { width: number; height: number },
  dpr: number,
  left: number,
  top: number,
) {
  const device = { width: css.width * dpr, height: css.height * dpr };
  const side = MARKER_CSS * dpr;
  const square = await sharp({
    create: { width: side, height: side, channels: 3, background: { r: 255, g: 0, b: 255 } },
  })
    .png()
    .toBuffer();
  const sent = profile.image.size(device.width, device.height);
  const png = await sharp({ create: { ...device, channels: 3, background: '#ffffff' } })
    .composite([{ input: square, left: left * dpr, top: top * dpr }])
    .png()
    .toBuffer();
  const jpeg = await sharp(png)
    .resize(sent.width, sent.height, { fit: 'fill' })
    .jpeg({ quality: 80 })
    .toBuffer();
  const base64 = jpeg.toString('base64');
  const image: ProfileImage = {
    dataUrl: `data:image/jpeg;base64,${base64}`,
    base64,
    mediaType: 'image/jpeg',
    ...sent,
    bytes: jpeg.length,
  };
  return image;
}

const observe = (image: ProfileImage, acknowledged: SafetySignal[] = []): HistoryTurn => ({
  kind: 'observation',
  image,
  notes: [],
  acknowledged,
});

async function step(server: GoldenServer, history: HistoryTurn[], key = KEY) {
  const body = wire.body(
    profile.buildRequest({
      instruction: 'Click the magenta square.',
      history,
      actionSpace: 'browser',
      imageWindow: 3,
    }),
    { model: MODEL, maxTokens: 1024, temperature: 0, stream: false },
  );
  const response = await fetch(wire.endpoint(server.url, MODEL), {
    method: 'POST',
    headers: wire.headers(key),
    body: JSON.stringify(body),
  });
  const json: unknown = await response.json();
  if (response.status !== 200) return { status: response.status, json, read: null, reply: null };
  const read = wire.read(json);
  assert.ok(read.ok, read.ok ? '' : read.message);
  return { status: response.status, json, read, reply: profile.readReply(read.reply) };
}

describe('gemini-computer-use against the fake Gemini API', () => {
  let server: GoldenServer;
  before(async () => {
    server = await startGeminiGolden({ apiKey: KEY });
  });
  after(() => server.close());

  const viewports = [
    { width: 1280, height: 800 },
    { width: 1366, height: 768 },
    { width: 1920, height: 1080 },
  ];
  for (const css of viewports) {
    for (const dpr of [1, 2]) {
      it(`${css.width}×${css.height} at DPR ${dpr}: the click lands on the marker, then the task ends`, async () => {
        const left = Math.round(css.width * 0.37) + 3;
        const top = Math.round(css.height * 0.61) + 5;
        const image = await screenshot(css, dpr, left, top);
        const first = await step(server, [observe(image)]);
        assert.equal(first.status, 200);
        assert.ok(first.reply?.parsed.ok);
        const [click] = first.reply.parsed.reply.actions;
        assert.equal(click?.name, 'click');
        assert.ok(click?.start);
        const x = (click.start.x / 1000) * css.width;
        const y = (click.start.y / 1000) * css.height;
        const centre = { x: left + MARKER_CSS / 2, y: top + MARKER_CSS / 2 };
        assert.ok(
          Math.abs(x - centre.x) <= 2 && Math.abs(y - centre.y) <= 2,
          `(${x}, ${y}) vs (${centre.x}, ${centre.y})`,
        );
        assert.deepEqual(first.read?.ok && first.read.usage, {
          promptTokens: 1132,
          completionTokens: 24,
        });

        const history = [
          observe(image),
          { kind: 'reply', turn: first.reply.turn } as HistoryTurn,
          observe(image),
        ];
        const second = await step(server, history);
        assert.equal(second.status, 200);
        assert.ok(second.reply?.parsed.ok);
        assert.deepEqual(second.reply.parsed.reply.actions, [
          { name: 'finished', args: { content: 'I clicked the marker. Done.' } },
        ]);
        const sent = server.requests.at(-1);
        assert.deepEqual(sent?.image, { width: image.width, height: image.height, format: 'jpeg' });
      });
    }
  }

  it('refuses a request without the key, or without the computerUse tool', async () => {
    const image = await screenshot({ width: 640, height: 400 }, 1, 100, 100);
    assert.equal((await step(server, [observe(image)], '')).status, 403);
    const response = await fetch(wire.endpoint(server.url, MODEL), {
      method: 'POST',
      headers: wire.headers(KEY),
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    assert.equal(response.status, 400);
  });
});

describe('gemini-computer-use safety decision over the wire', () => {
  let server: GoldenServer;
  before(async () => {
    server = await startGeminiGolden({ apiKey: KEY, requireConfirmation: true });
  });
  after(() => server.close());

  it('asks for an approval, and the approved call is acknowledged in the next request', async () => {
    const image = await screenshot({ width: 1280, height: 800 }, 1, 600, 300);
    const first = await step(server, [observe(image)]);
    assert.ok(first.reply?.parsed.ok);
    const { safety, actions } = first.reply.parsed.reply;
    assert.equal(actions[0]?.name, 'click');
    assert.deepEqual(
      safety.map((signal) => signal.code),
      ['require_confirmation'],
    );
    const replyTurn = { kind: 'reply', turn: first.reply.turn } as HistoryTurn;
    const unacknowledged = await step(server, [observe(image), replyTurn, observe(image)]);
    assert.equal(unacknowledged.status, 400);
    const acknowledged = await step(server, [observe(image), replyTurn, observe(image, safety)]);
    assert.equal(acknowledged.status, 200);
    assert.equal(
      acknowledged.reply?.parsed.ok && acknowledged.reply.parsed.reply.actions[0]?.name,
      'finished',
    );
  });
});
