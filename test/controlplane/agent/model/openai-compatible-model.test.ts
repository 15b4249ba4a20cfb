import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { createOpenAiCompatibleModel } from '../../../../controlplane/src/agent/model/openai-compatible-model.js';
import { ModelError } from '../../../../controlplane/src/errors.js';
import { loopbackServerForSuite } from '../../../support/loopback-server.js';
import { createManualClock } from '../../../support/manual-clock.js';

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

describe('OpenAI-compatible model client (real HTTP on loopback)', () => {
  let handlers: Handler[] = [];
  const bodies: string[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const server = loopbackServerForSuite((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      bodies.push(body);
      headers.push(request.headers);
      const handler = handlers.shift();
      if (!handler) {
        response.writeHead(599).end('no scripted reply');
        return;
      }
      handler(request, body, response);
    });
  });
  const reply =
    (content: unknown): Handler =>
    (_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          choices: [{ message: { role: 'assistant', content } }],
          usage: { prompt_tokens: 7, completion_tokens: 3 },
        }),
      );
    };
  const status =
    (code: number, extra: Record<string, string> = {}): Handler =>
    (_request, _body, response) => {
      response.writeHead(code, extra).end(`status ${code}`);
    };

  const model = (overrides: Partial<Parameters<typeof createOpenAiCompatibleModel>[0]> = {}) => {
    const clock = createManualClock();
    const client = createOpenAiCompatibleModel({
      baseUrl: `${server.origin}/v1/`,
      model: 'ui-tars-test',
      apiKey: 'sk-test',
      timeoutMs: 2000,
      retries: 2,
      maxTokens: 1024,
      temperature: 0,
      clock,
      ...overrides,
    });
    return { client, clock };
  };
  const request = { messages: [{ role: 'user' as const, content: 'hello' }] };

  it('posts a chat completion with a bounded max_tokens and the API key', async () => {
    handlers = [reply('Thought: ok\nAction: wait()')];
    bodies.length = 0;
    headers.length = 0;
    const result = await model().client.complete(request);
    assert.equal(result.text, 'Thought: ok\nAction: wait()');
    assert.deepEqual(result.usage, { promptTokens: 7, completionTokens: 3, estimated: false });
    const sent = JSON.parse(bodies[0] ?? '{}');
    assert.equal(sent.model, 'ui-tars-test');
    assert.equal(sent.max_tokens, 1024);
    assert.equal(sent.stream, false);
    assert.equal(result.requestBytes, Buffer.byteLength(bodies[0] ?? ''));
    assert.equal(headers[0]?.authorization, 'Bearer sk-test');
  });

  it('retries 429 and 5xx with doubling back-off, honouring Retry-After', async () => {
    handlers = [
      status(429, { 'retry-after': '3' }),
      status(503),
      status(500),
      reply('Action: finished()'),
    ];
    const { client, clock } = model({ backoffMs: 100, random: () => 1 });
    const result = await client.complete(request);
    assert.equal(result.text, 'Action: finished()');
    assert.deepEqual(clock.sleeps, [3050, 100, 200]);
  });

  it('gives up after the retries with MODEL_UNAVAILABLE naming the status', async () => {
    handlers = [status(500), status(500), status(500)];
    await assert.rejects(model().client.complete(request), (error: unknown) => {
      assert.ok(error instanceof ModelError);
      assert.equal(error.code, 'MODEL_UNAVAILABLE');
      assert.match(error.message, /HTTP 500/);
      return true;
    });
  });

  it('does not retry a 4xx rejection', async () => {
    handlers = [status(400), reply('never')];
    await assert.rejects(model().client.complete(request), { code: 'MODEL_REJECTED' });
    handlers = [];
  });

  it('times out a hung server with MODEL_TIMEOUT', async () => {
    handlers = [() => undefined, () => undefined];
    const started = Date.now();
    await assert.rejects(model({ timeoutMs: 300, retries: 1 }).client.complete(request), {
      code: 'MODEL_TIMEOUT',
    });
    assert.ok(Date.now() - started < 3000);
    server.closeAllConnections();
  });

  it('rejects an empty reply (after one re-ask) and a body without choices (at once)', async () => {
    handlers = [reply('   '), reply('')];
    await assert.rejects(model().client.complete(request), { code: 'MODEL_EMPTY_REPLY' });
    handlers = [reply(undefined), reply('never asked')];
    await assert.rejects(model().client.complete(request), { code: 'MODEL_BAD_RESPONSE' });
    assert.equal(handlers.length, 1);
    handlers = [];
  });

  it('reports an unreachable server as MODEL_UNAVAILABLE', async () => {
    const client = createOpenAiCompatibleModel({
      baseUrl: 'http://127.0.0.1:1/v1',
      model: 'x',
      timeoutMs: 1000,
      retries: 0,
      maxTokens: 100,
      temperature: 0,
    });
    await assert.rejects(client.complete(request), { code: 'MODEL_UNAVAILABLE' });
  });

  it('aborts an in-flight request when the signal fires', async () => {
    handlers = [() => undefined];
    const controller = new AbortController();
    const pending = model({ timeoutMs: 10_000 }).client.complete(request, controller.signal);
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(pending, (error: unknown) => (error as Error).name === 'AbortError');
    server.closeAllConnections();
  });
});
