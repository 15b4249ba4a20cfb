import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ToolDefinition } from '@mariozechner/pi-coding-agent';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createBrowserRunTaskExtension } from '../../controlplane/pi-extension/browser-run-task.js';
import {
  type CompactResult,
  compactResultSchema,
} from '../../controlplane/src/tasks/task-input.js';
import { clickThenFinish } from '../controlplane/ingress/mcp/mcp-fixture.js';
import { createFakePi } from '../controlplane/pi/fake-pi.js';
import { requires } from '../support/capabilities.js';
import { createTestControlplane, type TestControlplane } from '../support/controlplane.js';
import { supportScriptArgv } from '../support/current-build.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { repositoryRoot } from '../support/repository-root.js';

const instruction = 'read the answer';

describe('e2e: one task, four surfaces, one compact result shape', requires('chromium'), () => {
  let controlplane: TestControlplane;
  let base = '';
  before(async () => {
    controlplane = await createTestControlplane({
      model: createPerTaskScriptModel(clickThenFinish),
      env: { CLAWDIE_MAX_STEPS: '5' },
    });
    base = await controlplane.serve();
  });
  after(() => controlplane?.close());

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
    const root = repositoryRoot;
    const stdio = new StdioClientTransport({
      command: process.execPath,
      args: [...supportScriptArgv('test/support/mcp-stdio-entry.ts')],
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
      calls: result.usage?.model_calls,
      estimated: result.usage?.estimated,
      status: result.status,
      summary: result.summary,
      result_data: result.result_data,
      step_count: result.step_count,
      screenshot: result.final_screenshot_path?.endsWith('final.jpg'),
      verdict: result.verification?.verdict,
    });
    const expected = essence(results.rest);
    assert.deepEqual(expected, {
      // The six keys, `usage` (model totals, here estimated: the script model reports none) and the
      // verification every finished task carries (issue 23): a read-only answer with no
      // state-changing request and no criteria is `unchecked`.
      keys: [
        'final_screenshot_path',
        'result_data',
        'status',
        'step_count',
        'summary',
        'trace_id',
        'usage',
        'verification',
      ],
      status: 'finished',
      summary: '42',
      result_data: null,
      step_count: 3,
      screenshot: true,
      calls: 3,
      estimated: true,
      verdict: 'unchecked',
    });
    for (const [surface, result] of Object.entries(results))
      assert.deepEqual(essence(result), expected, surface);
    for (const result of Object.values(results)) assert.match(result.trace_id, /^[0-9a-f-]{36}$/);
  });
});
