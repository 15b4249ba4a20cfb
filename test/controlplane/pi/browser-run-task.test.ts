import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type {
  AgentToolResult,
  ExtensionContext,
  ToolDefinition,
} from '@mariozechner/pi-coding-agent';
import {
  type BrowserRunTaskExtensionOptions,
  createBrowserRunTaskExtension,
} from '../../../controlplane/pi-extension/browser-run-task.js';
import { createReplayModel } from '../../../controlplane/src/agent/model/replay-model.js';
import {
  closedPortUrl,
  createPacedModel,
  startTestControlplane,
  type TestControlplane,
} from './controlplane-fixture.js';
import { createFakePi, type FakePi } from './fake-pi.js';

const fastRetry = { attempts: 2, initialDelayMs: 5, maxDelayMs: 20 };
// A short stall check: controlplane/src/ingress/http/task-event-stream.ts can miss a wake-up and hold back
// the final event (see the extension's follow-task.ts); the check fetches the result instead.
const stallCheckMs = 300;

function load(url: string, options: BrowserRunTaskExtensionOptions = {}) {
  const pi = createFakePi({ 'clawdie-url': url });
  createBrowserRunTaskExtension({ retry: fastRetry, stallCheckMs, ...options })(pi.api);
  const tool = pi.tools[0] as ToolDefinition<any, any>;
  return { pi, tool };
}

async function execute(
  tool: ToolDefinition<any, any>,
  params: Record<string, unknown>,
  options: { signal?: AbortSignal; onUpdate?: (update: AgentToolResult<any>) => void } = {},
) {
  const updates: AgentToolResult<any>[] = [];
  const result = await tool.execute(
    'call-1',
    params,
    options.signal,
    (update) => {
      updates.push(update);
      options.onUpdate?.(update);
    },
    {} as ExtensionContext,
  );
  return { result, updates };
}

function textOf(result: AgentToolResult<any>): string {
  const [part] = result.content;
  return part?.type === 'text' ? part.text : '';
}

/** What pi 0.73.1 does after execute resolves: run the tool_result hooks on the result. */
async function toolResultPatch(pi: FakePi, result: AgentToolResult<any>) {
  const [patch] = await pi.emit('tool_result', {
    type: 'tool_result',
    toolName: 'browser_run_task',
    toolCallId: 'call-1',
    input: {},
    content: result.content,
    details: result.details,
    isError: false,
  });
  return patch;
}

describe('browser_run_task registration', () => {
  it('registers the flags, a sequential tool with TypeBox parameters and its hooks', () => {
    const { pi, tool } = load('http://127.0.0.1:1');
    assert.deepEqual([...pi.flags.keys()], ['clawdie-url', 'clawdie-token']);
    assert.equal(pi.tools.length, 1);
    assert.equal(tool.name, 'browser_run_task');
    assert.equal(tool.executionMode, 'sequential');
    assert.match(tool.promptSnippet ?? '', /^browser_run_task: /);
    assert.ok((tool.promptGuidelines ?? []).length > 0);
    for (const line of tool.promptGuidelines ?? []) assert.match(line, /browser_run_task/);
    const schema = tool.parameters as any;
    assert.equal(schema.type, 'object');
    assert.deepEqual(schema.required, ['instruction']);
    assert.deepEqual(schema.properties.credential_mode.enum, [
      'none',
      'supervisor_approved',
      'session',
      'operator_approved', // the former name of supervisor_approved, still accepted
    ]);
    assert.deepEqual([...pi.handlers.keys()].sort(), ['session_shutdown', 'tool_result']);
  });
});

describe('browser_run_task against a real controlplane', () => {
  let ok: TestControlplane;
  let parseFailure: TestControlplane;
  let endless: TestControlplane;
  let noModel: TestControlplane;
  before(async () => {
    ok = await startTestControlplane({
      model: createReplayModel([
        "Thought: open it\nAction: click(start_box='<|box_start|>(644,406)<|box_end|>')",
        "Action: type(content='demo')",
        'Action: finished(content=\'{"price": 42}\')',
      ]),
    });
    parseFailure = await startTestControlplane({
      model: createReplayModel(['garbage', 'more garbage', 'still garbage']),
    });
    endless = await startTestControlplane({
      model: createPacedModel(['Action: wait()'], 20),
      maxSteps: 500,
    });
    noModel = await startTestControlplane();
  });
  after(async () => {
    await Promise.all([ok, parseFailure, endless, noModel].map((c) => c?.close()));
  });

  it('returns the compact result as JSON text plus details, streaming steps as progress', async () => {
    const { pi, tool } = load(ok.url);
    const { result, updates } = await execute(tool, {
      instruction: 'read the price',
      max_steps: 5,
    });
    const details = result.details;
    assert.equal(details.status, 'finished');
    assert.equal(details.step_count, 3);
    assert.deepEqual(details.result_data, { price: 42 });
    assert.equal(result.content.length, 1);
    assert.equal(result.content[0]?.type, 'text');
    assert.deepEqual(JSON.parse(textOf(result)), details);
    assert.equal(await ok.statusOf(details.trace_id), 'finished');

    assert.equal(updates[0] && textOf(updates[0]), `browser task ${details.trace_id} queued`);
    const lines = updates.map(textOf);
    assert.equal(
      lines.filter((line) => line.endsWith(' queued')).length,
      1,
      `queued is reported once:\n${lines.join('\n')}`,
    );
    assert.ok(lines.includes('step 1/5: click (640, 400)'), lines.join('\n'));
    assert.ok(lines.includes('step 2/5: type "demo"'), lines.join('\n'));
    for (const update of updates) {
      assert.equal(update.details.trace_id, details.trace_id, 'every update carries details');
    }
    const stepUpdate = updates.find((update) => update.details.step?.step === 1);
    assert.deepEqual(stepUpdate?.details.step.actions, ['click (640, 400)']);
    assert.equal(stepUpdate?.details.status, 'running');
    assert.equal(await toolResultPatch(pi, result), undefined);
  });

  it('returns a failed task with its details and marks it isError through tool_result', async () => {
    const { pi, tool } = load(parseFailure.url);
    const { result } = await execute(tool, { instruction: 'do something' });
    assert.equal(result.details.status, 'error');
    assert.equal(result.details.error.code, 'PARSE_FAILED');
    assert.equal(result.details.step_count, 3);
    assert.deepEqual(await toolResultPatch(pi, result), { isError: true });
    assert.match(textOf(result), /"PARSE_FAILED"/);
  });

  it('aborts the remote task when the signal aborts mid-task and returns its aborted result as details', async () => {
    const { pi, tool } = load(endless.url);
    const controller = new AbortController();
    let traceId = '';
    const { result } = await execute(
      tool,
      { instruction: 'wait forever' },
      {
        signal: controller.signal,
        onUpdate: (update) => {
          traceId = update.details.trace_id;
          if (update.details.step) controller.abort();
        },
      },
    );
    assert.match(textOf(result), new RegExp(`browser task ${traceId} is being aborted`));
    assert.equal(result.details.trace_id, traceId);
    assert.equal(result.details.status, 'aborted');
    assert.equal(result.details.step_count, (await endless.repository.getTask(traceId))?.stepCount);
    assert.deepEqual(await toolResultPatch(pi, result), { isError: true });
    await endless.waitForStatus(traceId, 'aborted', 2000);
  });

  it('aborts tasks still running when the pi session shuts down', async () => {
    const { pi, tool } = load(endless.url);
    let shutdown: Promise<unknown> | undefined;
    const { result } = await execute(
      tool,
      { instruction: 'wait forever' },
      {
        onUpdate: (update) => {
          if (update.details.step && !shutdown)
            shutdown = pi.emit('session_shutdown', { type: 'session_shutdown', reason: 'quit' });
        },
      },
    );
    await shutdown;
    assert.equal(result.details.status, 'aborted');
    assert.deepEqual(await toolResultPatch(pi, result), { isError: true });
  });

  it('throws the server message for invalid input (HTTP 400)', async () => {
    const { tool } = load(ok.url);
    await assert.rejects(
      execute(tool, { instruction: '   ' }),
      /controlplane POST \/v1\/tasks failed: HTTP 400 BAD_REQUEST: instruction: must not be empty/,
    );
  });

  it('throws MODEL_NOT_CONFIGURED when the controlplane has no model (HTTP 503)', async () => {
    const { tool } = load(noModel.url);
    await assert.rejects(
      execute(tool, { instruction: 'anything' }),
      /HTTP 503 MODEL_NOT_CONFIGURED: no model is configured/,
    );
  });

  it('throws a clear error when the controlplane is unreachable', async () => {
    const url = await closedPortUrl();
    const { tool } = load(url);
    await assert.rejects(execute(tool, { instruction: 'anything' }), (error: Error) => {
      assert.match(error.message, new RegExp(`controlplane at ${url} is unreachable`));
      assert.match(error.message, /ECONNREFUSED/);
      assert.match(error.message, /CLAWDIE_URL or --clawdie-url/);
      return true;
    });
  });

  it('sends the token as a bearer token on every request and never returns it', async () => {
    const seen: Array<string | null> = [];
    const { tool } = load(ok.url, {
      loadConfig: () => ({ url: ok.url, token: 'tok-secret' }),
      fetch: (input, init) => {
        seen.push(new Headers(init.headers).get('authorization'));
        return fetch(input, init);
      },
    });
    const { result, updates } = await execute(tool, { instruction: 'with a token' });
    assert.ok(seen.length >= 2);
    assert.deepEqual(new Set(seen), new Set(['Bearer tok-secret']));
    assert.doesNotMatch(JSON.stringify([result, updates]), /tok-secret/);
  });
});
