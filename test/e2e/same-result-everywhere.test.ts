import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createAdaptorServer } from '@hono/node-server';
import type { ToolDefinition } from '@mariozechner/pi-coding-agent';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createBrowserRunTaskExtension } from '../../controlplane/pi-extension/browser-run-task.js';
import { createApp } from '../../controlplane/src/http/app.js';
import {
  type CompactResult,
  compactResultSchema,
} from '../../controlplane/src/tasks/task-input.js';
import { createTaskService } from '../../controlplane/src/tasks/task-service.js';
import { clickThenFinish } from '../controlplane/mcp/mcp-fixture.js';
import { createFakePi } from '../controlplane/pi/fake-pi.js';
import { requires } from '../support/capabilities.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { silentLogger } from '../support/silent-logger.js';
import { createTestTaskDeps } from '../support/test-task-deps.js';

const instruction = 'read the answer';

describe('e2e: one task, four surfaces, one compact result shape', requires('chromium'), () => {
  const fixture = createTestTaskDeps({
    model: createPerTaskScriptModel(clickThenFinish),
    loop: { maxSteps: 5 },
  });
  const tasks = createTaskService(fixture.deps);
  const app = createApp({
    tasks,
    repository: fixture.repository,
    logger: silentLogger,
    defaultMaxSteps: 5,
    describe: () => ({ model: { name: 'script', replay: true }, jail: { url: 'fake' } }),
  });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  let base = '';
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    server.close();
    await tasks.close();
    fixture.close();
  });

  async function viaRest(): Promise<CompactResult> {
    const started = await fetch(`${base}/v1/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ instruction }),
    });
    const { trace_id } = (await started.json()) as { trace_id: string };
    const stream = await (await fetch(`${base}/v1/tasks/${trace_id}/events`)).text();
    const last = stream.trim().split('\n\n').at(-1) ?? '';
    const data =
      last
        .split('\n')
        .find((line) => line.startsWith('data:'))
        ?.slice(5) ?? '{}';
    return compactResultSchema.parse(JSON.parse(data));
  }

  async function viaMcp(
    transport: StdioClientTransport | StreamableHTTPClientTransport,
  ): Promise<CompactResult> {
    const client = new Client({ name: 'same-shape', version: '0.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({
        name: 'browser_run_task',
        arguments: { instruction },
      });
      return compactResultSchema.parse(result.structuredContent);
    } finally {
      await client.close();
    }
  }

  async function viaPi(): Promise<CompactResult> {
    const pi = createFakePi({ 'clawdie-url': base });
    createBrowserRunTaskExtension()(pi.api);
    const tool = pi.tools[0] as ToolDefinition<any, any>;
    const result = await tool.execute(
      'call-1',
      { instruction },
      new AbortController().signal,
      () => undefined,
      {} as never,
    );
    assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), result.details);
    return compactResultSchema.parse(result.details);
  }

  it('returns the same status, summary, result_data and step_count with the same keys', async () => {
    const root = join(import.meta.dirname, '..', '..');
    const stdio = new StdioClientTransport({
      command: process.execPath,
      args: ['--conditions=source', '--import', 'tsx', 'test/support/mcp-stdio-entry.ts'],
      cwd: root,
      stderr: 'ignore',
    });
    const results = {
      rest: await viaRest(),
      mcpHttp: await viaMcp(new StreamableHTTPClientTransport(new URL(`${base}/mcp`))),
      mcpStdio: await viaMcp(stdio),
      pi: await viaPi(),
    };
    const essence = (result: CompactResult) => ({
      keys: Object.keys(result).sort(),
      status: result.status,
      summary: result.summary,
      result_data: result.result_data,
      step_count: result.step_count,
      screenshot: result.final_screenshot_path?.endsWith('final.jpg'),
    });
    const expected = essence(results.rest);
    assert.deepEqual(expected, {
      keys: ['final_screenshot_path', 'result_data', 'status', 'step_count', 'summary', 'trace_id'],
      status: 'finished',
      summary: '42',
      result_data: null,
      step_count: 3,
      screenshot: true,
    });
    for (const [surface, result] of Object.entries(results))
      assert.deepEqual(essence(result), expected, surface);
    for (const result of Object.values(results)) assert.match(result.trace_id, /^[0-9a-f-]{36}$/);
  });
});
