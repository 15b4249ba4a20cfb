// Issue 12, "How it is checked": a bounded fuzz of the REST API. Every route of the OpenAPI
// document (plus /health, /mcp, /v1/waits and the dashboard login) gets seeded malformed,
// oversized, deeply nested and wrong-typed requests, with and without auth, over real HTTP.
// Asserted: no 5xx, no request slower than a bound, heap growth bounded. Repeat a run with
// CLAWDIE_FUZZ_SEED=<the printed seed>.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createAdaptorServer } from '@hono/node-server';
import { createStaticAdminVerifier } from '../../controlplane/src/dashboard/admin-auth.js';
import { createApp } from '../../controlplane/src/http/app.js';
import { buildOpenApiDocument } from '../../controlplane/src/http/openapi.js';
import { createTaskService } from '../../controlplane/src/tasks/task-service.js';
import { createBrowserWaitService } from '../../controlplane/src/wait/browser-wait-service.js';
import { createApprovalsFixture } from '../controlplane/approvals/approvals-fixture.js';
import { createAuthFixture } from '../controlplane/auth/auth-fixture.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { silentLogger } from '../support/silent-logger.js';
import { testImages } from '../support/test-images.js';
import { createTestTaskDeps } from '../support/test-task-deps.js';
import { fuzzRequest, type Operation } from './support/fuzz-requests.js';
import { createRandom, type Random } from './support/fuzz-values.js';

const MAX_REQUESTS = 2000;
const MAX_TOTAL_MS = 60_000;
const MAX_REQUEST_MS = 3000;
const MAX_HEAP_GROWTH = 96 * 1024 * 1024;
const seed = Number(process.env.CLAWDIE_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 32));

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const ADMIN_TOKEN = 'fuzz-admin-token-0123456789abcdef';
const test = createTestTaskDeps({
  model: createPerTaskScriptModel(["Action: finished(content='ok')"]),
});
const tasks = createTaskService(test.deps);
const approvals = createApprovalsFixture();
let server: Server;
let base = '';
let tokens: Record<'admin' | 'reader' | 'garbage', string>;

before(async () => {
  const auth = await createAuthFixture();
  tokens = {
    admin: await auth.token(['tasks:run', 'tasks:read', 'admin'], 'acme'),
    reader: await auth.token(['tasks:read'], 'beta'),
    garbage: 'eyJhbGciOiJub25lIn0.e30.',
  };
  const app = createApp({
    tasks,
    repository: test.repository,
    logger: silentLogger,
    defaultMaxSteps: 3,
    describe: () => ({ model: { name: 'script', replay: true }, jail: { url: 'http://x' } }),
    auth: { verifier: auth.verifier },
    approvals: approvals.approvals,
    waits: createBrowserWaitService({
      images: testImages,
      browsers: { get: () => undefined, list: () => [] },
      local: null,
    }),
    dashboard: { verifyAdmin: createStaticAdminVerifier(ADMIN_TOKEN) },
  });
  server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await tasks.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  approvals.close();
  test.close();
});

/** Every documented operation, plus the routes the OpenAPI document leaves out. */
function operations(): Operation[] {
  const document = buildOpenApiDocument('fuzz') as { paths: Record<string, object> };
  const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })),
  );
  assert.ok(documented.length >= 8, 'the OpenAPI document lists the REST routes');
  return [
    ...documented,
    { method: 'GET', path: '/health' },
    { method: 'GET', path: '/openapi.json' },
    { method: 'POST', path: '/mcp' },
    { method: 'GET', path: '/mcp' },
    { method: 'DELETE', path: '/mcp' },
    { method: 'POST', path: '/v1/waits' },
    { method: 'GET', path: '/v1/waits/{id}' },
    { method: 'DELETE', path: '/v1/waits/{id}' },
    { method: 'POST', path: '/dashboard/login' },
    { method: 'GET', path: '/dashboard/tasks/{id}' },
  ];
}

interface Finding {
  request: string;
  status: number | string;
  ms: number;
  body: string;
  /** The request before it (a closed connection shows on the next request). */
  after?: string;
}

async function send(random: Random, operation: Operation, taskIds: string[]) {
  const request = fuzzRequest(random, operation, { tokens, taskIds });
  const started = performance.now();
  try {
    const response = await fetch(`${base}${request.path}`, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body as BodyInit }),
      signal: AbortSignal.timeout(MAX_REQUEST_MS * 3),
    });
    const streaming = response.headers.get('content-type')?.includes('event-stream');
    let text = '';
    if (streaming) await response.body?.cancel();
    else text = await response.text();
    const ms = performance.now() - started;
    if (response.status === 202 && request.path === '/v1/tasks') {
      const id = (JSON.parse(text) as { trace_id?: string }).trace_id;
      if (id) taskIds.push(id);
    }
    return { summary: request.summary, status: response.status, ms, body: text.slice(0, 300) };
  } catch (error) {
    const ms = performance.now() - started;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = `${(error as Error).message} ${cause?.code ?? cause?.message ?? ''}`;
    return { summary: request.summary, status: `error ${reason}`, ms, body: '' };
  }
}

describe(`REST API fuzz (seed ${seed})`, () => {
  it('answers every generated request without a 5xx, quickly, with bounded heap growth', async () => {
    console.log(`fuzz seed ${seed}: repeat with CLAWDIE_FUZZ_SEED=${seed}`);
    const random = createRandom(seed);
    const ops = operations();
    const taskIds: string[] = [];
    const failures: Finding[] = [];
    let slowest: Finding = { request: '', status: 0, ms: 0, body: '' };
    const started = performance.now();
    let heapBase = 0;
    let count = 0;
    const statuses = new Map<number | string, number>();
    let previous = '';
    for (; count < MAX_REQUESTS && performance.now() - started < MAX_TOTAL_MS; count++) {
      if (count === 100) {
        gc();
        heapBase = process.memoryUsage().heapUsed;
      }
      const operation =
        count < ops.length * 3 ? (ops[count % ops.length] as Operation) : random.pick(ops);
      const result = await send(random, operation, taskIds);
      statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
      const finding = {
        request: result.summary,
        status: result.status,
        ms: result.ms,
        body: result.body,
        after: previous,
      };
      previous = `${result.summary} -> ${result.status}`;
      if (result.ms > slowest.ms) slowest = finding;
      if (typeof result.status !== 'number' || result.status >= 500 || result.ms > MAX_REQUEST_MS) {
        failures.push(finding);
      }
    }
    await Promise.all(taskIds.map((id) => waitUntilIdle(id)));
    gc();
    const heapGrowth = process.memoryUsage().heapUsed - heapBase;
    const elapsed = performance.now() - started;
    console.log(
      `fuzz: ${count} requests in ${(elapsed / 1000).toFixed(1)} s, ${taskIds.length} tasks started, ` +
        `slowest ${slowest.ms.toFixed(0)} ms (${slowest.request}), heap +${(heapGrowth / 2 ** 20).toFixed(1)} MiB, ` +
        `statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    for (const failure of failures.slice(0, 10))
      console.log(`fuzz finding: ${JSON.stringify(failure)}`);
    assert.deepEqual(failures.slice(0, 10), [], `seed ${seed}: ${failures.length} bad answers`);
    assert.ok(count >= 500, `only ${count} requests fitted in ${MAX_TOTAL_MS} ms (seed ${seed})`);
    assert.ok(heapGrowth < MAX_HEAP_GROWTH, `heap grew ${heapGrowth} bytes (seed ${seed})`);
  });
});

async function waitUntilIdle(id: string): Promise<void> {
  for (let i = 0; i < 500 && tasks.isActive(id); i++) await new Promise((r) => setTimeout(r, 10));
}
