// Streamed replies (`stream: true`, server-sent events) against a real fake server on loopback:
// deltas joined, the first-token timeout, a server that ignores `stream`, and broken streams.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ModelRetry } from '../../../../controlplane/src/agent/model/chat-types.js';
import {
  createOpenAiCompatibleModel,
  type OpenAiCompatibleModelOptions,
} from '../../../../controlplane/src/agent/model/openai-compatible-model.js';
import {
  type FaultyChatServer,
  startFaultyChatServer,
} from '../../../support/faulty-chat-server.js';
import { createManualClock } from '../../../support/manual-clock.js';

const request = { messages: [{ role: 'user' as const, content: 'Find the lamp and order it' }] };
const sse = (...events: string[]) =>
  ({
    kind: 'raw',
    status: 200,
    contentType: 'text/event-stream',
    body: events.map((data) => `data: ${data}\n\n`).join(''),
  }) as const;

describe('model client streaming (real HTTP on loopback)', () => {
  let server: FaultyChatServer;
  before(async () => {
    server = await startFaultyChatServer();
  });
  after(() => server.close());

  const client = (overrides: Partial<OpenAiCompatibleModelOptions> = {}) => {
    const retries: ModelRetry[] = [];
    const model = createOpenAiCompatibleModel({
      baseUrl: server.baseUrl,
      model: 'ui-tars-1.5-7b',
      timeoutMs: 5000,
      retries: 2,
      maxTokens: 1024,
      temperature: 0,
      clock: createManualClock(),
      stream: true,
      firstTokenTimeoutMs: 2000,
      ...overrides,
    });
    const complete = () =>
      model.complete(request, undefined, { onRetry: (retry) => void retries.push(retry) });
    return { complete, retries };
  };

  it('asks for a stream and joins its deltas into the UI-TARS reply, with usage', async () => {
    const reply = await client().complete();
    assert.equal(reply.text, server.scriptReply(0));
    assert.ok(reply.usage && reply.usage.completionTokens > 0);
    assert.equal(server.requests.at(-1)?.body?.stream, true);
  });

  it('retries a stream that sends no token within the first-token timeout', async () => {
    server.queue({ kind: 'stall-stream' });
    const { complete, retries } = client({ firstTokenTimeoutMs: 150 });
    const started = performance.now();
    const reply = await complete();
    const elapsed = performance.now() - started;
    assert.equal(reply.text, server.scriptReply(0));
    assert.deepEqual(
      retries.map((retry) => retry.reason),
      ['first_token_timeout'],
    );
    assert.match(retries[0]?.message ?? '', /no token within 150 ms/);
    assert.ok(elapsed >= 140 && elapsed < 4000, `took ${elapsed} ms`);
  });

  it('takes a JSON reply to a stream request, and holds it to the whole-request timeout only', async () => {
    // Slower than the first-token timeout: a server that ignores `stream` answers only when done.
    const slow = await startFaultyChatServer({ delayMs: 250 });
    try {
      slow.queue({ kind: 'reply', content: slow.scriptReply(1), json: true });
      const model = createOpenAiCompatibleModel({
        baseUrl: slow.baseUrl,
        model: 'ui-tars-1.5-7b',
        timeoutMs: 5000,
        retries: 0,
        maxTokens: 1024,
        temperature: 0,
        stream: true,
        firstTokenTimeoutMs: 100,
      });
      const reply = await model.complete(request);
      assert.equal(reply.text, slow.scriptReply(1));
      assert.equal(slow.requests.length, 1);
      assert.equal(slow.requests[0]?.body?.stream, true);
    } finally {
      await slow.close();
    }
  });

  it('re-asks a streamed reply cut off at max_tokens once', async () => {
    server.queue({ kind: 'reply', content: 'Thought: I will click the', finishReason: 'length' });
    const { complete, retries } = client();
    assert.equal((await complete()).text, server.scriptReply(0));
    assert.deepEqual(
      retries.map((retry) => retry.reason),
      ['truncated_reply'],
    );
  });

  it('retries a stream that reports an error or breaks off, and refuses one that is not JSON', async () => {
    const chunk = (content: string) => JSON.stringify({ choices: [{ delta: { content } }] });
    server.queue(
      sse(chunk('Thought: '), JSON.stringify({ error: { message: 'engine died' } })),
      sse(chunk('Thought: I will')),
    );
    const { complete, retries } = client();
    assert.equal((await complete()).text, server.scriptReply(0));
    assert.deepEqual(
      retries.map((retry) => [retry.reason, retry.message]),
      [
        ['server_error', 'model stream reported an error: engine died'],
        ['network', 'the model stream ended before the reply was complete'],
      ],
    );
    server.queue(sse('{"choices": [', '[DONE]'));
    await assert.rejects(client().complete(), { code: 'MODEL_BAD_RESPONSE', message: /not JSON/ });
  });

  it('stops reading a stream past 4 MiB instead of buffering it', async () => {
    const delta = JSON.stringify({ choices: [{ delta: { content: 'x'.repeat(64 * 1024) } }] });
    server.queue(sse(...Array.from({ length: 80 }, () => delta)));
    await assert.rejects(client().complete(), {
      code: 'MODEL_BAD_RESPONSE',
      message: /stream larger than 4194304 bytes/,
    });
  });

  it('reads an event stream labelled as JSON', async () => {
    const body = `data: ${JSON.stringify({ choices: [{ delta: { content: 'Action: wait()' }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;
    server.queue({ kind: 'raw', status: 200, contentType: 'application/json', body });
    assert.equal((await client().complete()).text, 'Action: wait()');
  });
});
