import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Hono } from 'hono';
import { createReplayModel } from '../../../../controlplane/src/agent/model/replay-model.js';
import { createAuditLog } from '../../../../controlplane/src/governance/audit/audit-log.js';
import { createTokenIssuer } from '../../../../controlplane/src/governance/auth/api-tokens.js';
import { createApp } from '../../../../controlplane/src/ingress/http/app.js';
import { createAuditRepository } from '../../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import { createTaskService } from '../../../../controlplane/src/tasks/task-service.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { createTestTaskDeps } from '../../../support/test-task-deps.js';
import { createAuthFixture } from './auth-fixture.js';

const fixture = await createAuthFixture();
const { deps, repository, close } = createTestTaskDeps({
  model: createReplayModel(["Action: finished(content='ok')"]),
  loop: { maxSteps: 3 },
});
const database = openDatabase(':memory:');
const audit = createAuditLog(createAuditRepository(database.db), { now: () => 1 });
const tasks = createTaskService(deps);
const app: Hono = createApp({
  tasks,
  repository,
  logger: silentLogger,
  defaultMaxSteps: 3,
  describe: () => ({
    model: { name: 'replay', replay: true },
    jail: { url: 'http://127.0.0.1:1' },
  }),
  // Every refusal below comes from one source (`unknown`: no socket): no 429s for this suite.
  auth: { verifier: fixture.verifier },
  failures: { limit: 100_000, windowMs: 60_000 },
  audit,
});
after(async () => {
  await tasks.close();
  close();
  database.close();
});

const mcpInitialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 't', version: '1' },
  },
});
let taskId = '';

/** One request per route family; `scope` is what it needs. */
const families = () =>
  [
    {
      name: 'start task',
      method: 'POST',
      path: '/v1/tasks',
      body: JSON.stringify({ instruction: 'x' }),
      scope: 'tasks:run',
    },
    { name: 'list tasks', method: 'GET', path: '/v1/tasks', scope: 'tasks:read' },
    { name: 'task', method: 'GET', path: `/v1/tasks/${taskId}`, scope: 'tasks:read' },
    { name: 'events', method: 'GET', path: `/v1/tasks/${taskId}/events`, scope: 'tasks:read' },
    { name: 'step', method: 'GET', path: `/v1/tasks/${taskId}/steps/1`, scope: 'tasks:read' },
    {
      name: 'screenshot',
      method: 'GET',
      path: `/v1/tasks/${taskId}/steps/1/screenshot`,
      scope: 'tasks:read',
    },
    { name: 'abort', method: 'POST', path: `/v1/tasks/${taskId}/abort`, scope: 'tasks:run' },
    { name: 'mcp', method: 'POST', path: '/mcp', body: mcpInitialize, scope: 'tasks:run' },
  ] as const;

const send = (family: ReturnType<typeof families>[number], authorization?: string) =>
  app.request(family.path, {
    method: family.method,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(authorization ? { authorization } : {}),
    },
    ...('body' in family ? { body: family.body } : {}),
  });

describe('API auth on every route family', () => {
  before(async () => {
    const started = await app.request('/v1/tasks', {
      method: 'POST',
      headers: { authorization: `Bearer ${await fixture.token(['tasks:run'])}` },
      body: JSON.stringify({ instruction: 'seed' }),
    });
    taskId = ((await started.json()) as { trace_id: string }).trace_id;
    for (let i = 0; i < 100 && tasks.isActive(taskId); i++)
      await new Promise((r) => setTimeout(r, 10));
  });

  it('answers 401 with a JSON body and a Bearer challenge when the token is missing', async () => {
    for (const family of families()) {
      const response = await send(family);
      assert.equal(response.status, 401, family.name);
      assert.equal(((await response.json()) as any).error.code, 'TOKEN_MISSING', family.name);
      assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer realm="clawdie"/);
    }
  });

  it('answers 401 TOKEN_INVALID for garbage and a foreign signature', async () => {
    const foreign = await (await createAuthFixture()).token(['admin']);
    for (const family of families()) {
      for (const authorization of ['Bearer abc.def.ghi', `Bearer ${foreign}`]) {
        const response = await send(family, authorization);
        assert.equal(response.status, 401, family.name);
        assert.equal(((await response.json()) as any).error.code, 'TOKEN_INVALID', family.name);
      }
    }
  });

  it('answers 401 TOKEN_EXPIRED and TOKEN_WRONG_AUDIENCE', async () => {
    const expired = await fixture.issue({
      tenant: 'acme',
      subject: 's',
      scopes: ['admin'],
      ttlSeconds: 1,
    });
    const otherAudience = await createTokenIssuer(fixture.keys, {
      ...fixture.settings,
      audience: 'elsewhere',
    })({
      tenant: 'acme',
      subject: 's',
      scopes: ['admin'],
      ttlSeconds: 600,
    });
    fixture.clock.now += 5_000;
    try {
      for (const family of families()) {
        const a = await send(family, `Bearer ${expired}`);
        assert.equal(((await a.json()) as any).error.code, 'TOKEN_EXPIRED', family.name);
        const b = await send(family, `Bearer ${otherAudience}`);
        assert.equal(b.status, 401, family.name);
        assert.equal(((await b.json()) as any).error.code, 'TOKEN_WRONG_AUDIENCE', family.name);
      }
    } finally {
      fixture.clock.now -= 5_000;
    }
  });

  it('answers 403 SCOPE_MISSING for a valid token without the route scope', async () => {
    for (const family of families()) {
      const other = family.scope === 'tasks:run' ? 'tasks:read' : 'tasks:run';
      const response = await send(family, `Bearer ${await fixture.token([other])}`);
      assert.equal(response.status, 403, family.name);
      const body = (await response.json()) as any;
      assert.equal(body.error.code, 'SCOPE_MISSING');
      assert.match(body.error.message, new RegExp(family.scope));
    }
  });

  it('lets the right scope (or admin) through', async () => {
    for (const family of families()) {
      if (family.name === 'events' || family.name === 'abort') continue;
      for (const scopes of [[family.scope], ['admin']] as const) {
        const response = await send(family, `Bearer ${await fixture.token([...scopes])}`);
        assert.ok(response.status < 400, `${family.name} with ${scopes}: ${response.status}`);
        await response.body?.cancel();
      }
    }
    const aborted = await send(families()[6], `Bearer ${await fixture.token(['tasks:run'])}`);
    assert.equal(aborted.status, 409, 'abort passes auth and reaches the route');
  });

  it('keeps /health and /openapi.json public, with internal URLs in /health for admins only', async () => {
    const anonymous = await app.request('/health');
    assert.equal(anonymous.status, 200);
    assert.deepEqual(await anonymous.json(), { status: 'ok' });
    for (const scopes of [['tasks:run', 'tasks:read'], ['admin']] as const) {
      const response = await app.request('/health', {
        headers: { authorization: `Bearer ${await fixture.token([...scopes])}` },
      });
      const body = (await response.json()) as { jail?: { url: string } };
      assert.equal(body.jail?.url, scopes[0] === 'admin' ? 'http://127.0.0.1:1' : undefined);
    }
    assert.equal((await app.request('/openapi.json')).status, 200);
  });

  it('audits each refusal code once per source and window, in full, never the token', async () => {
    const jwt = await fixture.token(['tasks:read']);
    await app.request('/v1/tasks', {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}` },
      body: '{}',
    });
    const rows = (await audit.list({ limit: 10_000 })).filter((row) => row.type === 'auth-failed');
    const codes = rows.map((row) => String(row.data.code));
    assert.ok(rows.length >= 1 && rows.length <= 8, `${rows.length} rows for the window`);
    assert.equal(new Set(codes).size, codes.length, `one row per code, repeats counted: ${codes}`);
    assert.equal(rows[0]?.data.source, 'unknown');
    assert.match(codes[0] ?? '', /^TOKEN_/);
    assert.ok(!JSON.stringify(rows).includes(jwt.split('.')[2] as string));
    assert.equal((await audit.verify()).ok, true);
  });
});
