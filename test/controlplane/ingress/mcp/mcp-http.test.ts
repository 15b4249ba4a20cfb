import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { describe, it, type TestContext } from 'node:test';
import { serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { Hono } from 'hono';
import { createMcpRoutes } from '../../../../controlplane/src/ingress/mcp/http-routes.js';
import { compactResultSchema } from '../../../../controlplane/src/tasks/task-input.js';
import { silentLogger } from '../../../support/silent-logger.js';
import {
  clickThenFinish,
  createTestTasks,
  type TestTasksOptions,
  waitForever,
} from './mcp-fixture.js';

/** `/mcp` mounted on a Hono app, served on 127.0.0.1:0, and a real SDK client connected to it. */
async function setUp(t: TestContext, options: TestTasksOptions) {
  const fixture = createTestTasks(options);
  const app = new Hono();
  app.route(
    '/mcp',
    createMcpRoutes({
      tasks: fixture.tasks,
      logger: silentLogger,
      defaultMaxSteps: fixture.maxSteps,
    }),
  );
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const listening = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () =>
      resolve(listening),
    );
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const client = new Client({ name: 'test', version: '0.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  t.after(async () => {
    await client.close();
    await fixture.close();
    // Cut the client's keep-alive sockets, or close() waits for them (≈ 4 s).
    await new Promise((resolve) => {
      server.close(resolve);
      if ('closeAllConnections' in server) server.closeAllConnections();
    });
  });
  return { ...fixture, app, client, url };
}

describe('MCP over streamable HTTP (/mcp, sessions)', () => {
  it('runs a task with progress notifications on the SSE response and returns the result', async (t) => {
    const { client } = await setUp(t, { outputs: clickThenFinish });
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['browser_run_task'],
    );
    const progress: Progress[] = [];
    const result = await client.callTool(
      { name: 'browser_run_task', arguments: { instruction: 'read the answer' } },
      undefined,
      { onprogress: (update) => progress.push(update) },
    );
    const compact = compactResultSchema.parse(result.structuredContent);
    assert.equal(compact.status, 'finished');
    assert.equal(compact.summary, '42');
    assert.match((result.content as { text: string }[])[0]?.text ?? '', /^status: finished\n/);
    assert.deepEqual(
      progress.map((update) => update.message),
      ['step 1/5: click (640, 400)', 'step 2/5: type "demo"', 'step 3/5: finished'],
    );
  });

  it('keeps a session across calls and refuses requests without or with an unknown session', async (t) => {
    const { client, app, started } = await setUp(t, {
      outputs: [...clickThenFinish, ...clickThenFinish],
    });
    for (let call = 0; call < 2; call++) {
      const result = await client.callTool({
        name: 'browser_run_task',
        arguments: { instruction: `call ${call}` },
      });
      assert.equal(compactResultSchema.parse(result.structuredContent).status, 'finished');
    }
    assert.equal(started.length, 2);
    const get = await app.request('/mcp', { headers: { accept: 'text/event-stream' } });
    assert.equal(get.status, 400);
    const unknown = await app.request('/mcp', {
      method: 'DELETE',
      headers: { 'mcp-session-id': 'nope' },
    });
    assert.equal(unknown.status, 404);
    const post = await app.request('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(post.status, 406);
  });

  it('aborts the task within 2 s when the client cancels the call', async (t) => {
    const { client, started } = await setUp(t, {
      outputs: waitForever(),
      waitMs: 50,
      realWaits: true,
      maxSteps: 500,
    });
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'browser_run_task', arguments: { instruction: 'wait for ever' } },
      undefined,
      {
        signal: controller.signal,
        onprogress: () => controller.abort(),
      },
    );
    await assert.rejects(call);
    const cancelledAt = performance.now();
    const result = await started[0]?.done;
    assert.equal(result?.status, 'aborted');
    const elapsed = performance.now() - cancelledAt;
    assert.ok(elapsed < 2000, `ended ${Math.round(elapsed)} ms after the cancel`);
  });

  it('aborts the task when the client disconnects during the call', async (t) => {
    const { client, started } = await setUp(t, {
      outputs: waitForever(),
      waitMs: 50,
      realWaits: true,
      maxSteps: 500,
    });
    let firstStep: () => void = () => undefined;
    const stepped = new Promise<void>((resolve) => {
      firstStep = resolve;
    });
    const call = client.callTool(
      { name: 'browser_run_task', arguments: { instruction: 'wait for ever' } },
      undefined,
      { onprogress: () => firstStep() },
    );
    await stepped;
    await client.close();
    await assert.rejects(call, /Connection closed/);
    const disconnectedAt = performance.now();
    const result = await started[0]?.done;
    assert.equal(result?.status, 'aborted');
    const elapsed = performance.now() - disconnectedAt;
    assert.ok(elapsed < 2000, `ended ${Math.round(elapsed)} ms after the disconnect`);
  });
});
