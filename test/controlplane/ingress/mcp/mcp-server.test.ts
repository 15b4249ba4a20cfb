import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { loopbackPrincipal } from '../../../../controlplane/src/governance/auth/scopes.js';
import { createMcpServer } from '../../../../controlplane/src/ingress/mcp/mcp-server.js';
import { compactResultSchema } from '../../../../controlplane/src/tasks/task-input.js';
import type { TaskService } from '../../../../controlplane/src/tasks/task-service.js';
import { describeUsage, type TaskUsage } from '../../../../controlplane/src/tasks/task-usage.js';
import { createUnavailableTaskService } from '../../../../controlplane/src/tasks/unavailable-task-service.js';
import { silentLogger } from '../../../support/silent-logger.js';
import {
  clickThenFinish,
  createTestTasks,
  type TestTasksOptions,
  waitForever,
} from './mcp-fixture.js';

/** A real Client connected to a real server over the SDK's in-memory linked pair. */
async function connect(t: TestContext, tasks: TaskService, defaultMaxSteps = 5) {
  const server = createMcpServer(
    { tasks, logger: silentLogger, defaultMaxSteps },
    loopbackPrincipal,
  );
  const client = new Client({ name: 'test', version: '0.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  t.after(() => client.close());
  return client;
}

async function setUp(t: TestContext, options: TestTasksOptions) {
  const fixture = createTestTasks(options);
  t.after(() => fixture.close());
  const client = await connect(t, fixture.tasks, fixture.maxSteps);
  // Caches the output schema, so callTool validates structuredContent against it.
  await client.listTools();
  return { ...fixture, client };
}

/** The text parts of a tool result (callTool's type also admits the legacy `toolResult` form). */
const textOf = (result: object) =>
  ((result as { content?: { text: string }[] }).content ?? []).map((part) => part.text).join('\n');

describe('MCP server (in-memory transport)', () => {
  it('lists exactly one tool, browser_run_task, with input and output schemas', async (t) => {
    const { client } = await setUp(t, { outputs: clickThenFinish });
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['browser_run_task'],
    );
    const [tool] = tools;
    assert.ok(tool?.title && tool.description && tool.description.length > 200);
    assert.deepEqual(tool.annotations, {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    const input = tool.inputSchema as Record<string, any>;
    assert.equal(input.type, 'object');
    assert.deepEqual(input.required, ['instruction']);
    assert.equal(input.additionalProperties, false);
    assert.ok(input.properties.instruction.description);
    assert.deepEqual(Object.keys(input.properties).sort(), [
      'credential_mode',
      'domains',
      'files',
      'host_labels',
      'instruction',
      'keep_session',
      'logged_in_check',
      'max_steps',
      'model_profile',
      'record',
      'result_schema',
      'session',
      'session_id',
      'start_url',
      'success_criteria',
      'surface',
      'timeout_s',
    ]);
    const output = tool.outputSchema as Record<string, any>;
    assert.equal(output.type, 'object');
    assert.ok(
      ['status', 'summary', 'trace_id', 'step_count'].every((key) => key in output.properties),
    );
  });

  it('runs a task and returns the compact result as structuredContent plus a short text', async (t) => {
    const { client, repository } = await setUp(t, { outputs: clickThenFinish });
    const progress: Progress[] = [];
    const result = await client.callTool(
      { name: 'browser_run_task', arguments: { instruction: 'read the answer' } },
      undefined,
      { onprogress: (update) => progress.push(update) },
    );
    assert.equal(result.isError, undefined);
    const compact = compactResultSchema.parse(result.structuredContent);
    assert.equal(compact.status, 'finished');
    assert.equal(compact.summary, '42');
    assert.equal(compact.step_count, 3);
    assert.equal((await repository.getTask(compact.trace_id))?.status, 'finished');
    const text = textOf(result);
    // The replay model reports no usage: the estimate, marked, rides beside the six keys.
    assert.equal(compact.usage?.model_calls, 3);
    assert.equal(compact.usage?.estimated, true);
    // A finished task says how far its answer was checked against its requests (issue 23).
    assert.equal(compact.verification?.verdict, 'unchecked');
    assert.equal(
      text,
      `status: finished\nsummary: 42\nverification: unchecked — no state-changing request and no success criteria to check\ntrace_id: ${compact.trace_id}\nsteps: 3\nusage: ${describeUsage(compact.usage as TaskUsage)}`,
    );
    assert.deepEqual(progress, [
      { progress: 1, total: 5, message: 'step 1/5: click (640, 400)' },
      { progress: 2, total: 5, message: 'step 2/5: type "demo"' },
      { progress: 3, total: 5, message: 'step 3/5: finished' },
    ]);
  });

  it('reports max_steps from the arguments as the progress total', async (t) => {
    const { client } = await setUp(t, { outputs: clickThenFinish });
    const progress: Progress[] = [];
    const result = await client.callTool(
      { name: 'browser_run_task', arguments: { instruction: 'x', max_steps: 2 } },
      undefined,
      { onprogress: (update) => progress.push(update) },
    );
    assert.equal((result.structuredContent as any).status, 'max_steps');
    assert.equal(result.isError, undefined);
    assert.deepEqual(
      progress.map((update) => [update.progress, update.total]),
      [
        [1, 2],
        [2, 2],
      ],
    );
  });

  it('answers invalid arguments the way SDK 1.32 does: an isError result, no task started', async (t) => {
    const { client, started } = await setUp(t, { outputs: clickThenFinish });
    const missing = await client.callTool({ name: 'browser_run_task', arguments: {} });
    assert.equal(missing.isError, true);
    assert.equal(missing.structuredContent, undefined);
    assert.match(
      textOf(missing),
      /^MCP error -32602: Input validation error: Invalid arguments for tool browser_run_task: .*instruction/s,
    );
    const unknownKey = await client.callTool({
      name: 'browser_run_task',
      arguments: { instruction: 'x', colour: 'red' },
    });
    assert.equal(unknownKey.isError, true);
    assert.match(textOf(unknownKey), /^MCP error -32602: Input validation error: .*colour/s);
    const badUrl = await client.callTool({
      name: 'browser_run_task',
      arguments: { instruction: 'x', start_url: 'file:///etc/passwd' },
    });
    assert.match(textOf(badUrl), /start_url/);
    assert.equal(started.length, 0);
  });

  it('answers an unknown tool name with an isError result too (SDK 1.32)', async (t) => {
    const { client } = await setUp(t, { outputs: clickThenFinish });
    const result = await client.callTool({ name: 'browser_navigate', arguments: {} });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /^MCP error -32602: Tool browser_navigate not found/);
  });

  it('returns a task that ends in error as isError with the compact result kept', async (t) => {
    // An exhausted replay is MODEL_UNAVAILABLE on the first model call.
    const { client } = await setUp(t, { outputs: [] });
    const result = await client.callTool({
      name: 'browser_run_task',
      arguments: { instruction: 'x' },
    });
    assert.equal(result.isError, true);
    const compact = compactResultSchema.parse(result.structuredContent);
    assert.equal(compact.status, 'error');
    assert.equal(compact.error?.code, 'MODEL_UNAVAILABLE');
    assert.match(textOf(result), /^status: error\n.*\nerror: MODEL_UNAVAILABLE: replay exhausted/s);
  });

  it('turns a task service that throws into an isError result naming the code', async (t) => {
    const client = await connect(t, createUnavailableTaskService());
    const result = await client.callTool({
      name: 'browser_run_task',
      arguments: { instruction: 'x' },
    });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /^MODEL_NOT_CONFIGURED: no model is configured/);
  });

  it('aborts the task when the client cancels the call; it ends aborted within 2 s', async (t) => {
    const { client, started, repository } = await setUp(t, {
      outputs: waitForever(),
      waitMs: 50,
      realWaits: true,
      maxSteps: 500,
    });
    const controller = new AbortController();
    const progress: Progress[] = [];
    const call = client.callTool(
      { name: 'browser_run_task', arguments: { instruction: 'wait for ever' } },
      undefined,
      {
        signal: controller.signal,
        onprogress: (update) => {
          progress.push(update);
          if (update.progress === 2) controller.abort();
        },
      },
    );
    await assert.rejects(call, { name: 'McpError', code: -32001, message: /AbortError/ });
    const cancelledAt = performance.now();
    const [task] = started;
    assert.ok(task);
    const result = await task.done;
    const elapsed = performance.now() - cancelledAt;
    assert.equal(result.status, 'aborted');
    assert.ok(elapsed < 2000, `ended ${Math.round(elapsed)} ms after the cancel`);
    assert.equal((await repository.getTask(task.taskId))?.status, 'aborted');
    assert.deepEqual(progress[1], { progress: 2, total: 500, message: 'step 2/500: wait 50 ms' });
  });
});
