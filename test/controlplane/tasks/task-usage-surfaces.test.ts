// A task's model usage and cost, end to end: a real model client against a loopback fake server
// (one that reports `usage`, then one that does not), CLAWDIE_MODEL_PRICES, and the same totals
// through REST (per task and per step), MCP structuredContent and the dashboard's task page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createOpenAiCompatibleModel } from '../../../controlplane/src/agent/model/openai-compatible-model.js';
import type { StepView } from '../../../controlplane/src/ingress/http/task-view-schemas.js';
import { compactResultSchema } from '../../../controlplane/src/tasks/task-input.js';
import type { TaskUsage } from '../../../controlplane/src/tasks/task-usage.js';
import { createTestControlplane, type TestControlplane } from '../../support/controlplane.js';
import { type ChatServer, startChatServer } from '../../support/uitars-test-model-server.js';
import { clickThenFinish } from '../ingress/mcp/mcp-fixture.js';

const ADMIN_TOKEN = 'usage-admin-token-0123456789abcdef';
const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
const PRICES = { 'priced-7b': { input_per_million: 2, output_per_million: 8, currency: 'USD' } };
/** What the server reports per call while `reported` is on. */
const USAGE = { prompt_tokens: 1000, completion_tokens: 20, total_tokens: 1020 };

describe('task usage and cost on every surface', () => {
  let server: ChatServer;
  let controlplane: TestControlplane;
  let reported = true;

  before(async () => {
    server = await startChatServer({
      modelName: 'priced-7b',
      delayMs: () => 0,
      // The reply follows the task's own conversation: one script per task.
      respond: async (_record, request) => {
        const turn = request.messages.filter((message) => message.role === 'assistant').length;
        const content = clickThenFinish[turn] ?? 'Action: wait()';
        return { kind: 'reply', content, ...(reported ? { usage: USAGE } : { usage: null }) };
      },
    });
    controlplane = await createTestControlplane({
      role: 'server',
      model: createOpenAiCompatibleModel({
        baseUrl: server.baseUrl,
        model: 'priced-7b',
        timeoutMs: 10_000,
        retries: 0,
        maxTokens: 256,
        temperature: 0,
        stream: true,
      }),
      env: {
        CLAWDIE_ADMIN_TOKEN: ADMIN_TOKEN,
        CLAWDIE_MAX_STEPS: '5',
        CLAWDIE_MODEL_PRICES: JSON.stringify(PRICES),
      },
    });
  });
  after(async () => {
    await controlplane?.close();
    await server?.close();
  });

  async function runViaRest(): Promise<string> {
    const started = await controlplane.app.request('/v1/tasks', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ instruction: 'read the answer' }),
    });
    const { trace_id: id } = (await started.json()) as { trace_id: string };
    await (await controlplane.app.request(`/v1/tasks/${id}/events`, { headers: auth })).text();
    return id;
  }

  it("REST: the server's usage per step, the totals and their cost", async () => {
    reported = true;
    const id = await runViaRest();
    const response = await controlplane.app.request(`/v1/tasks/${id}`, { headers: auth });
    const detail = (await response.json()) as {
      task: { usage: TaskUsage };
      result: { usage: TaskUsage };
      steps: StepView[];
    };
    const usage = detail.result.usage;
    assert.deepEqual(
      [usage.model_calls, usage.judge_calls, usage.prompt_tokens, usage.completion_tokens],
      [3, 0, 3000, 60],
    );
    assert.equal(usage.estimated, false);
    // 3 × (1000 × 2 + 20 × 8) / 1e6 USD.
    assert.deepEqual(usage.cost, { amount: 0.00648, currency: 'USD' });
    assert.deepEqual(detail.task.usage, usage, 'the task view has the same totals');
    // Screenshots sent: 1, 2 and 3 (the image window), as the server received them.
    assert.equal(usage.images, 6);
    assert.equal(
      usage.images,
      server.requests.reduce((sum, r) => sum + r.imageCount, 0),
    );
    assert.ok(usage.image_bytes > 0 && usage.model_ms > 0);
    const first = detail.steps[0]?.usage;
    assert.ok(first, 'each step shows its call');
    assert.deepEqual(
      [first.prompt_tokens, first.completion_tokens, first.estimated, first.images],
      [1000, 20, false, 1],
    );
    assert.equal(typeof first.first_token_ms, 'number', 'a streamed call has a first token');
    assert.ok(first.queue_ms >= 0 && first.total_ms >= (first.first_token_ms ?? 0));
    const html = await dashboardPage(id);
    assert.match(html, /3 model calls · 3000 prompt \+ 60 completion tokens · 6 images/);
    assert.match(html, /cost 0\.00648 USD/);
    assert.match(html, /Model call: 1000 prompt \+ 20 completion tokens · 1 image, /);
  });

  it('MCP: structuredContent carries the estimated usage beside the six keys, never images', async () => {
    reported = false;
    const base = await controlplane.serve();
    const client = new Client({ name: 'usage', version: '0.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: auth } }),
    );
    try {
      const result = await client.callTool({
        name: 'browser_run_task',
        arguments: { instruction: 'read the answer' },
      });
      const compact = compactResultSchema.parse(result.structuredContent);
      const usage = compact.usage;
      assert.ok(usage, 'structuredContent has usage');
      assert.equal(usage.estimated, true, 'the server sent no usage: estimated, and marked');
      assert.equal(usage.model_calls, 3);
      const steps = await controlplane.repository.listSteps(compact.trace_id);
      const prompt = steps.reduce((sum, step) => sum + (step.modelUsage?.promptTokens ?? 0), 0);
      const completion = steps.reduce((sum, s) => sum + (s.modelUsage?.completionTokens ?? 0), 0);
      assert.deepEqual([usage.prompt_tokens, usage.completion_tokens], [prompt, completion]);
      assert.deepEqual(usage.cost, {
        amount: Math.round(prompt * 2 + completion * 8) / 1_000_000,
        currency: 'USD',
      });
      assert.deepEqual(Object.keys(result.structuredContent ?? {}).sort(), [
        'final_screenshot_path',
        'result_data',
        'status',
        'step_count',
        'summary',
        'trace_id',
        'usage',
        'verification',
      ]);
      assert.doesNotMatch(JSON.stringify(result), /base64|data:image/);
      const html = await dashboardPage(compact.trace_id);
      assert.match(html, /completion tokens \(estimated\)/);
    } finally {
      await client.close();
    }
  });

  async function dashboardPage(id: string): Promise<string> {
    const login = await controlplane.app.request('/dashboard/login', {
      method: 'POST',
      body: new URLSearchParams({ token: ADMIN_TOKEN, next: '/dashboard' }),
    });
    const cookie = login.headers.get('set-cookie')?.split(';')[0] ?? '';
    const page = await controlplane.app.request(`/dashboard/tasks/${id}`, { headers: { cookie } });
    assert.equal(page.status, 200);
    return page.text();
  }
});
