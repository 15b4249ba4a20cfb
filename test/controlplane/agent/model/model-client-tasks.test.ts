// The model client under tasks: one concurrency limit shared by eight concurrent agent loops,
// and every retry of a task's model calls in its trace, as the REST API serves it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runAgentLoop } from '../../../../controlplane/src/agent/loop/loop.js';
import { createConfiguredModel } from '../../../../controlplane/src/agent/model/configured-model.js';
import { createEndpointLimiter } from '../../../../controlplane/src/agent/model/endpoint-limiter.js';
import { createOpenAiCompatibleModel } from '../../../../controlplane/src/agent/model/openai-compatible-model.js';
import { unpolicedGate } from '../../../../controlplane/src/governance/policy/unpoliced-gate.js';
import { createTestControlplane } from '../../../support/controlplane.js';
import { createFakeOperator } from '../../../support/fake-operator.js';
import {
  type FaultyChatServer,
  startFaultyChatServer,
  tooManyRequests,
} from '../../../support/faulty-chat-server.js';
import { createManualClock } from '../../../support/manual-clock.js';
import { testImages } from '../../../support/test-images.js';
import { testLoopOptions } from '../../../support/test-task-deps.js';

const modelOptions = (baseUrl: string) => ({
  baseUrl,
  model: 'ui-tars-1.5-7b',
  timeoutMs: 5000,
  retries: 3,
  maxTokens: 1024,
  temperature: 0,
  clock: createManualClock(),
  stream: true,
  firstTokenTimeoutMs: 2000,
});

describe('model client under tasks', () => {
  let server: FaultyChatServer;
  before(async () => {
    server = await startFaultyChatServer({ delayMs: 25 });
  });
  after(() => server.close());

  it('keeps eight concurrent tasks to one shared limit of in-flight model requests', async () => {
    const model = createOpenAiCompatibleModel({ ...modelOptions(server.baseUrl), concurrency: 3 });
    const first = server.requests.length;
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        runAgentLoop(
          { instruction: `Order lamp ${i}`, ...testLoopOptions() },
          {
            model,
            operator: createFakeOperator().operator,
            clock: createManualClock(),
            images: testImages,
            gate: unpolicedGate(undefined),
            emit: () => undefined,
          },
        ),
      ),
    );
    assert.deepEqual(
      results.map((result) => [result.status, result.summary]),
      Array.from({ length: 8 }, () => ['finished', 'ORD-1042']),
    );
    assert.equal(server.requests.length - first, 16);
    assert.equal(server.inFlight.peak, 3, 'never more than the limit, and the limit was reached');
  });

  it('records each retry of a task (attempt, reason, delay) in its trace on REST', async () => {
    const clock = createManualClock();
    const controlplane = await createTestControlplane({
      env: { CLAWDIE_MODEL_URL: server.baseUrl, CLAWDIE_MODEL_TASK_RETRIES: '10' },
      adapters: { model: (config) => createConfiguredModel(config, { clock, random: () => 0 }) },
    });
    after(() => controlplane.close());
    const { app, tasks } = controlplane;
    // Step 1: rate limited, then an empty reply twice (re-asked once): an unusable reply.
    const empty = (content: string) => ({ kind: 'reply', content }) as const;
    server.queue(tooManyRequests('1'), empty(''), empty(' '));
    const started = await app.request('/v1/tasks', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ instruction: 'Order the lamp', max_steps: 5 }),
    });
    const { trace_id: id } = (await started.json()) as { trace_id: string };
    for (let i = 0; i < 250 && tasks.isActive(id); i++) await new Promise((r) => setTimeout(r, 20));

    const task = (await (await app.request(`/v1/tasks/${id}`)).json()) as Record<string, any>;
    assert.equal(task.task.status, 'finished');
    assert.equal(task.result.summary, 'ORD-1042');
    assert.equal(task.steps[0].outcome, 'parse_error');
    const step = (await (await app.request(`/v1/tasks/${id}/steps/1`)).json()) as Record<
      string,
      any
    >;
    const retries = step.logs.filter((log: { event: string }) => log.event === 'model-retry');
    assert.deepEqual(
      retries.map((log: { data: unknown }) => log.data),
      [
        { attempt: 1, reason: 'rate_limited', delay_ms: 1000, status: 429 },
        { attempt: 2, reason: 'empty_reply', delay_ms: 0, status: null },
      ],
    );
    assert.deepEqual(clock.sleeps, [1000], 'the Retry-After wait ran on the injected clock');
    assert.match(
      retries[0].message,
      /^model call retry 1 \(rate_limited\) in 1000 ms: model server answered HTTP 429/,
    );
    const parseFailure = step.logs.find(
      (log: { event: string }) => log.event === 'step-parse_error',
    );
    assert.match(parseFailure.message, /empty text/);
  });

  it('spends one retry budget over all the steps of a task', async () => {
    const [click, finished] = [server.scriptReply(0), server.scriptReply(1)];
    const own = await startFaultyChatServer({ script: [click, click, finished] });
    after(() => own.close());
    const failure = { kind: 'error', status: 500, message: 'engine restarting' } as const;
    own.queue(
      failure,
      { kind: 'reply', content: click },
      failure,
      { kind: 'reply', content: click },
      failure,
    );
    const retried: number[] = [];
    const result = await runAgentLoop(
      { instruction: 'Order the lamp', ...testLoopOptions(), modelRetryBudget: 2 },
      {
        model: createOpenAiCompatibleModel(modelOptions(own.baseUrl)),
        operator: createFakeOperator().operator,
        clock: createManualClock(),
        images: testImages,
        gate: unpolicedGate(undefined),
        emit: (event) => void (event.type === 'model-retried' && retried.push(event.step)),
      },
    );
    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'MODEL_UNAVAILABLE');
    assert.match(result.error?.message ?? '', /HTTP 500.*model retries are spent/);
    assert.deepEqual(retried, [1, 2], 'steps 1 and 2 retried once each; step 3 had none left');
  });

  it('lets a request that gives up waiting for a slot go without taking one', async () => {
    const limiter = createEndpointLimiter(1);
    const release = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    assert.equal(limiter.waiting, 1);
    controller.abort();
    await assert.rejects(waiting, { name: 'AbortError' });
    assert.deepEqual([limiter.active, limiter.waiting], [1, 0]);
    release();
    release();
    assert.equal(limiter.active, 0, 'a second release frees nothing more');
    const next = await limiter.acquire();
    assert.equal(limiter.active, 1);
    next();
  });
});
