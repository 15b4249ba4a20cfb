// Usage of one model call over real HTTP on loopback: the server's `usage` when it sends one,
// else the documented estimate (text / 4 + ⌈w/28⌉·⌈h/28⌉ per image) marked `estimated`; the
// images sent; and the latency split (queue wait for the endpoint's slot, first token, total).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import type { ModelRequest } from '../../../../controlplane/src/agent/model/chat-types.js';
import { createOpenAiCompatibleModel } from '../../../../controlplane/src/agent/model/openai-compatible-model.js';
import { type ChatServer, startChatServer } from '../../../support/uitars-test-model-server.js';

const TEXT = 'x'.repeat(400);
const REPLY = 'Action: wait()';

describe('model call usage (a fake OpenAI-compatible server on loopback)', () => {
  let server: ChatServer;
  let jpeg: Buffer;
  /** The server's usage for the next replies: an object, or null for none. */
  let usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
  let delayMs = 0;

  before(async () => {
    jpeg = await sharp({
      create: { width: 1288, height: 812, channels: 3, background: '#3060c0' },
    })
      .jpeg({ quality: 80 })
      .toBuffer();
    server = await startChatServer({
      modelName: 'usage-model',
      delayMs: () => delayMs,
      respond: async () => ({ kind: 'reply', content: REPLY, usage }),
    });
  });
  after(() => server.close());

  const request = (url = `data:image/jpeg;base64,${jpeg.toString('base64')}`): ModelRequest => ({
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: TEXT },
          {
            type: 'image_url',
            image_url: { url },
          },
        ],
      },
    ],
  });
  const client = (options: { stream: boolean; concurrency?: number }) =>
    createOpenAiCompatibleModel({
      baseUrl: server.baseUrl,
      model: 'usage-model',
      timeoutMs: 10_000,
      retries: 0,
      maxTokens: 256,
      temperature: 0,
      ...options,
    });

  it("reports the server's usage, the image sent and the first token of a streamed reply", async () => {
    usage = { prompt_tokens: 1500, completion_tokens: 9, total_tokens: 1509 };
    delayMs = 0;
    const reply = await client({ stream: true }).complete(request());
    // A streamed request asks for the usage chunk (OpenAI, vLLM and Ollama send it only then).
    const sent = server.requests.at(-1)?.body as { stream_options?: unknown } | undefined;
    assert.deepEqual(sent?.stream_options, { include_usage: true });
    assert.deepEqual(reply.usage, { promptTokens: 1500, completionTokens: 9, estimated: false });
    assert.deepEqual(reply.images, { count: 1, bytes: jpeg.length });
    const timing = reply.timing;
    assert.ok(timing, 'the client reports its timing');
    assert.equal(typeof timing.firstTokenMs, 'number');
    assert.ok((timing.firstTokenMs ?? Infinity) <= timing.totalMs, JSON.stringify(timing));
    assert.ok(timing.queueMs < 50, JSON.stringify(timing));
  });

  it('estimates the tokens when the server sends no usage, and says so', async () => {
    usage = null;
    delayMs = 0;
    const reply = await client({ stream: false }).complete(request());
    assert.equal(
      (server.requests.at(-1)?.body as { stream_options?: unknown })?.stream_options,
      undefined,
    );
    // 400 characters of text / 4 = 100, plus ⌈1288/28⌉ × ⌈812/28⌉ = 46 × 29 = 1334 image tokens.
    assert.deepEqual(reply.usage, {
      promptTokens: 100 + 1334,
      completionTokens: Math.ceil(REPLY.length / 4),
      estimated: true,
    });
    assert.equal(reply.timing?.firstTokenMs, null, 'a JSON reply has no first token');
  });

  it('reads a WebP image size from its header for the estimate (the hosted profiles send WebP)', async () => {
    usage = null;
    delayMs = 0;
    const webp = await sharp(jpeg).webp({ quality: 50 }).toBuffer();
    const reply = await client({ stream: false }).complete(
      request(`data:image/webp;base64,${webp.toString('base64')}`),
    );
    assert.equal(reply.usage?.promptTokens, 100 + 1334);
    assert.deepEqual(reply.images, { count: 1, bytes: webp.length });
  });

  it("counts a call's wait for the endpoint's concurrency slot as its queue time", async () => {
    usage = null;
    delayMs = 150;
    const shared = client({ stream: true, concurrency: 1 });
    const [first, second] = await Promise.all([
      shared.complete(request()),
      shared.complete(request()),
    ]);
    const queued = [first.timing?.queueMs ?? 0, second.timing?.queueMs ?? 0].sort((a, b) => a - b);
    assert.ok((queued[0] ?? Infinity) < 50, `the first call does not wait: ${queued}`);
    assert.ok((queued[1] ?? 0) >= 120, `the second waits for the first: ${queued}`);
    assert.ok((second.timing?.totalMs ?? 0) >= (second.timing?.queueMs ?? Infinity));
  });
});
