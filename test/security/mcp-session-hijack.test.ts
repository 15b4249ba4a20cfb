// Issue 12, found item 6: an MCP HTTP session was not bound to its caller. Tenant beta holding
// alpha's `mcp-session-id` got 200 on tools/list, and beta's DELETE aborted alpha's running task.
// Two tenants' real tokens, the real app with auth, the real MCP SDK over loopback HTTP.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createApp } from '../../controlplane/src/http/app.js';
import { createAuthFixture } from '../controlplane/auth/auth-fixture.js';
import { createTestTasks, waitForever } from '../controlplane/mcp/mcp-fixture.js';
import { silentLogger } from '../support/silent-logger.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('security: an MCP session belongs to the principal that opened it', () => {
  it("gives another tenant's or subject's requests with the session id 404 and leaves the owner's task running", async (t) => {
    const auth = await createAuthFixture();
    const fixture = createTestTasks({
      outputs: waitForever(),
      waitMs: 50,
      realWaits: true,
      maxSteps: 500,
    });
    const app = createApp({
      tasks: fixture.tasks,
      repository: fixture.repository,
      logger: silentLogger,
      defaultMaxSteps: fixture.maxSteps,
      describe: () => ({ model: { name: 'replay', replay: true }, jail: { url: '' } }),
      auth: { verifier: auth.verifier, failures: { limit: 1000, windowMs: 60_000 } },
    });
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const listening = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () =>
        resolve(listening),
      );
    });
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
    const alphaToken = await auth.token(['tasks:run'], 'alpha');
    const betaToken = await auth.token(['tasks:run'], 'beta');
    const otherSubject = await auth.issue({
      tenant: 'alpha',
      subject: 'someone-else',
      scopes: ['tasks:run'],
      ttlSeconds: 600,
    });

    const alpha = new Client({ name: 'alpha', version: '0.0.0' });
    const alphaTransport = new StreamableHTTPClientTransport(url, {
      requestInit: { headers: bearer(alphaToken) },
    });
    await alpha.connect(alphaTransport);
    t.after(async () => {
      await alpha.close().catch(() => undefined);
      await fixture.close();
      await new Promise((resolve) => server.close(resolve));
      if ('closeAllConnections' in server) server.closeAllConnections();
    });
    const session = alphaTransport.sessionId as string;
    assert.ok(session);

    // Alpha runs a task that waits until aborted.
    let stepped: () => void = () => undefined;
    const firstStep = new Promise<void>((resolve) => {
      stepped = resolve;
    });
    const controller = new AbortController();
    const call = alpha.callTool(
      { name: 'browser_run_task', arguments: { instruction: 'wait for ever' } },
      undefined,
      { signal: controller.signal, onprogress: () => stepped() },
    );
    await firstStep;
    const task = fixture.started[0];
    assert.ok(task && fixture.tasks.isActive(task.taskId));

    for (const [who, token] of [
      ['beta', betaToken],
      ['alpha/someone-else', otherSubject],
    ] as const) {
      // The real SDK transport, pointed at alpha's session with another principal's token.
      const hijack = new StreamableHTTPClientTransport(url, {
        sessionId: session,
        requestInit: { headers: bearer(token) },
      });
      const received: JSONRPCMessage[] = [];
      hijack.onmessage = (message) => received.push(message);
      hijack.onerror = () => undefined;
      await hijack.start();
      await assert.rejects(
        hijack.send({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
        (error: { code?: number }) => error.code === 404,
        `${who}: tools/list on alpha's session`,
      );
      const stream = await fetch(url, {
        headers: {
          ...bearer(token),
          accept: 'text/event-stream',
          'mcp-session-id': session,
          'mcp-protocol-version': alphaTransport.protocolVersion ?? '2025-06-18',
        },
      });
      assert.equal(stream.status, 404, `${who}: GET stream of alpha's session`);
      await stream.body?.cancel();
      await assert.rejects(
        hijack.terminateSession(),
        (error: { code?: number }) => error.code === 404,
        `${who}: DELETE of alpha's session`,
      );
      assert.deepEqual(received, [], `${who} observed nothing of alpha's session`);
      await hijack.close();
    }

    // A moment later alpha's task is still running and alpha's session still answers.
    await sleep(300);
    assert.equal(fixture.tasks.isActive(task.taskId), true, "alpha's task survived");
    const { tools } = await alpha.listTools();
    assert.equal(tools.length, 1);

    // Beta's own session works (the 404s above are not an auth failure).
    const beta = new Client({ name: 'beta', version: '0.0.0' });
    await beta.connect(
      new StreamableHTTPClientTransport(url, { requestInit: { headers: bearer(betaToken) } }),
    );
    assert.equal((await beta.listTools()).tools.length, 1);
    await beta.close();

    controller.abort();
    await assert.rejects(call);
    assert.equal((await task.done).status, 'aborted');
  });
});
