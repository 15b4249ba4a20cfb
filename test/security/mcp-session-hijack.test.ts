// Issue 12, found item 6: an MCP HTTP session was not bound to its caller. Tenant beta holding
// alpha's `mcp-session-id` got 200 on tools/list, and beta's DELETE aborted alpha's running task.
// Two tenants' real tokens, the real app with auth, the real MCP SDK over loopback HTTP.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createReplayModel } from '../../controlplane/src/agent/model/replay-model.js';
import { createAuthFixture } from '../controlplane/governance/auth/auth-fixture.js';
import { waitForever, withRealWaits } from '../controlplane/ingress/mcp/mcp-fixture.js';
import { createTestControlplane } from '../support/controlplane.js';
import { createFakeOperator } from '../support/fake-operator.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('security: an MCP session belongs to the principal that opened it', () => {
  it("gives another tenant's or subject's requests with the session id 404 and leaves the owner's task running", async (t) => {
    const auth = await createAuthFixture();
    // `npm start`'s composition root, bearer tokens signed by the fixture's JWKS file.
    const controlplane = await createTestControlplane({
      role: 'server',
      model: createReplayModel(waitForever()),
      browsers: withRealWaits(createFakeOperator().operator),
      env: {
        CLAWDIE_AUTH_REQUIRED: 'true',
        CLAWDIE_AUTH_JWKS_FILE: auth.file,
        CLAWDIE_AUTH_FAILURE_LIMIT: '1000',
        CLAWDIE_WAIT_MS: '50',
        CLAWDIE_MAX_STEPS: '500',
      },
    });
    const url = new URL(`${await controlplane.serve()}/mcp`);
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
      await controlplane.close();
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
    const taskId =
      (await controlplane.repository.listTasks({ limit: 10, offset: 0 })).tasks[0]?.id ?? '';
    assert.ok(controlplane.tasks.isActive(taskId));

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
    assert.equal(controlplane.tasks.isActive(taskId), true, "alpha's task survived");
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
    for (let i = 0; i < 200 && controlplane.tasks.isActive(taskId); i++) await sleep(10);
    assert.equal((await controlplane.repository.getTask(taskId))?.status, 'aborted');
  });
});
