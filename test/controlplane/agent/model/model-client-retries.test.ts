// The model client against a real fake server on loopback: Retry-After (both forms, capped),
// jittered back-off, the per-call and per-task bounds, and the one re-ask of an empty or
// truncated reply. The manual clock records every wait instead of sleeping.
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
  tooManyRequests,
} from '../../../support/faulty-chat-server.js';
import { createManualClock } from '../../../support/manual-clock.js';

const request = { messages: [{ role: 'user' as const, content: 'Find the lamp and order it' }] };
const serverError = (status: number) =>
  ({ kind: 'error', status, message: 'upstream failed' }) as const;

describe('model client retries (real HTTP on loopback)', () => {
  let server: FaultyChatServer;
  before(async () => {
    server = await startFaultyChatServer();
  });
  after(() => server.close());

  const client = (overrides: Partial<OpenAiCompatibleModelOptions> = {}) => {
    const clock = createManualClock();
    const retries: ModelRetry[] = [];
    const model = createOpenAiCompatibleModel({
      baseUrl: server.baseUrl,
      model: 'ui-tars-1.5-7b',
      timeoutMs: 5000,
      retries: 5,
      maxTokens: 1024,
      temperature: 0,
      clock,
      random: () => 0.5,
      ...overrides,
    });
    const complete = (budget?: { remaining: number }) =>
      model.complete(request, undefined, {
        onRetry: (retry) => void retries.push(retry),
        ...(budget ? { budget } : {}),
      });
    return { complete, clock, retries };
  };

  it('waits as a 429 Retry-After in delta-seconds asks, and says so', async () => {
    server.queue(tooManyRequests('3'));
    const { complete, clock, retries } = client();
    const reply = await complete();
    assert.equal(reply.text, server.scriptReply(0));
    assert.deepEqual(clock.sleeps, [3125], '3 s asked, plus jitter of up to half the 500 ms base');
    assert.equal(retries.length, 1);
    assert.deepEqual(
      { ...retries[0], message: undefined },
      {
        attempt: 1,
        reason: 'rate_limited',
        delayMs: 3125,
        status: 429,
        message: undefined,
      },
    );
    assert.match(retries[0]?.message ?? '', /HTTP 429.*rate limit reached/);
  });

  it('waits until a 503 Retry-After HTTP-date, and caps a long one', async () => {
    const { complete, clock } = client();
    const inSeven = new Date(clock.now() + 7000).toUTCString();
    const inAnHour = new Date(clock.now() + 3_600_000).toUTCString();
    server.queue(
      { ...serverError(503), headers: { 'retry-after': inSeven } },
      tooManyRequests('86400'),
      { ...serverError(503), headers: { 'retry-after': inAnHour } },
    );
    await complete();
    // 7 s as asked (plus jitter); one day and one hour both cut to the 30 s cap.
    assert.deepEqual(clock.sleeps, [7125, 30_000, 30_000]);
  });

  it('jitters Retry-After by at most half the base back-off, and does not grow it', async () => {
    const draws = [0, 0.999, 0.5];
    server.queue(tooManyRequests('2'), tooManyRequests('2'), tooManyRequests('2'));
    const { complete, clock } = client({ backoffMs: 400, random: () => draws.shift() ?? 0 });
    await complete();
    assert.deepEqual(clock.sleeps, [2000, 2200, 2100]);
  });

  it('backs off 5xx and dropped connections exponentially, jittered within [½, 1], capped', async () => {
    const draws = [0, 0.999, 0.25, 0.75, 0.5];
    server.queue(serverError(500), { kind: 'drop' }, serverError(502), serverError(504), {
      kind: 'drop',
    });
    const { complete, clock, retries } = client({
      backoffMs: 1000,
      maxDelayMs: 10_000,
      random: () => draws.shift() ?? 0,
    });
    await complete();
    const full = [1000, 2000, 4000, 8000, 10_000];
    assert.deepEqual(clock.sleeps, [500, 1999, 2500, 7000, 7500]);
    clock.sleeps.forEach((ms, i) => {
      const bound = full[i] ?? 0;
      assert.ok(
        ms >= bound / 2 && ms <= bound,
        `wait ${i + 1}: ${ms} ms outside [${bound / 2}, ${bound}]`,
      );
    });
    assert.deepEqual(
      retries.map((retry) => retry.reason),
      ['server_error', 'network', 'server_error', 'server_error', 'network'],
    );
    assert.deepEqual(
      retries.map((retry) => retry.attempt),
      [1, 2, 3, 4, 5],
    );
  });

  it('gives up after the per-call retries, and when the task budget is spent', async () => {
    server.queue(serverError(500), serverError(500), serverError(500));
    const perCall = client({ retries: 2 });
    await assert.rejects(perCall.complete(), { code: 'MODEL_UNAVAILABLE', message: /HTTP 500/ });
    assert.equal(perCall.retries.length, 2);

    const budget = { remaining: 1 };
    server.queue(serverError(500), serverError(500));
    const perTask = client();
    await assert.rejects(perTask.complete(budget), /task's model retries are spent/);
    assert.equal(perTask.retries.length, 1);
    assert.equal(budget.remaining, 0);
    server.queue(serverError(500));
    await assert.rejects(perTask.complete(budget), /spent/);
    assert.equal(perTask.retries.length, 1, 'a spent budget allows no retry at all');
  });

  it('waits out twice as many Retry-After answers as it retries failures', async () => {
    const waits = Array.from({ length: 4 }, () => tooManyRequests('5'));
    server.queue(serverError(502), ...waits);
    const { complete, clock } = client({ retries: 2 });
    assert.equal((await complete()).text, server.scriptReply(0));
    assert.deepEqual(clock.sleeps, [375, 5125, 5125, 5125, 5125]);

    server.queue(...waits, tooManyRequests('5'), tooManyRequests('5'));
    await assert.rejects(client({ retries: 2 }).complete(), { message: /HTTP 429/ });
    assert.equal(server.queued(), 1, 'the fifth 429 ended the call');
    const noRetries = client({ retries: 0 });
    await assert.rejects(noRetries.complete(), { message: /HTTP 429/ });
    server.queue(serverError(502), serverError(502), serverError(502), tooManyRequests('5'));
    await assert.rejects(client({ retries: 2 }).complete(), { message: /HTTP 502/ });
    assert.equal(server.queued(), 1, 'the third 502 ended the call');
    await assert.rejects(noRetries.complete(), { message: /HTTP 429/ });
    assert.equal(noRetries.retries.length, 0);
  });

  it('re-asks an empty or truncated reply once, at once, then rejects it as MODEL_EMPTY_REPLY', async () => {
    const script = server.scriptReply(0);
    server.queue({ kind: 'reply', content: '' });
    const once = client();
    assert.equal((await once.complete()).text, script);
    assert.deepEqual(
      once.retries.map((retry) => [retry.reason, retry.delayMs]),
      [['empty_reply', 0]],
    );

    const cut = script.slice(0, 40);
    server.queue(
      { kind: 'reply', content: cut, finishReason: 'length' },
      { kind: 'reply', content: cut, finishReason: 'length' },
      { kind: 'reply', content: 'never asked' },
    );
    const twice = client();
    await assert.rejects(twice.complete(), {
      code: 'MODEL_EMPTY_REPLY',
      message: /max_tokens \(1024\)/,
    });
    assert.deepEqual(
      twice.retries.map((retry) => retry.reason),
      ['truncated_reply'],
    );
    assert.deepEqual(twice.clock.sleeps, []);
    const before = server.requests.length;
    assert.equal((await once.complete()).text, 'never asked', 'the third outcome was still queued');
    assert.equal(server.requests.length, before + 1);
  });
});
