// Issue 12, "How it is checked": a bounded fuzz of the REST API. Every route of the OpenAPI
// document (plus /health, /mcp, /v1/waits and the dashboard login) gets seeded malformed,
// oversized, deeply nested and wrong-typed requests, with and without auth, over real HTTP.
// Asserted: no 5xx, no request slower than a bound, heap growth bounded. Repeat a run with
// CLAWDIE_FUZZ_SEED=<the printed seed>. 800 requests (every route three times, then random ones);
// 2,000 in `npm run test:soak` (test/support/test-size.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { buildOpenApiDocument } from '../../controlplane/src/ingress/http/openapi.js';
import type { TaskService } from '../../controlplane/src/tasks/task-service.js';
import { createAuthFixture } from '../controlplane/governance/auth/auth-fixture.js';
import { createTestControlplane, type TestControlplane } from '../support/controlplane.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { sized } from '../support/test-size.js';
import { fuzzRequest, type Operation } from './support/fuzz-requests.js';
import { createRandom, type Random } from './support/fuzz-values.js';

const MAX_REQUESTS = sized(800, 2000);
const MAX_TOTAL_MS = 60_000;
const MAX_REQUEST_MS = 3000;
const MAX_HEAP_GROWTH = 96 * 1024 * 1024;
const seed = Number(process.env.CLAWDIE_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 32));

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const ADMIN_TOKEN = 'fuzz-admin-token-0123456789abcdef';
let controlplane: TestControlplane;
let tasks: TaskService;
let base = '';
let tokens: Record<'admin' | 'reader' | 'garbage', string>;

before(async () => {
  const auth = await createAuthFixture();
  tokens = {
    admin: await auth.token(['tasks:run', 'tasks:read', 'admin'], 'acme'),
    reader: await auth.token(['tasks:read'], 'beta'),
    garbage: 'eyJhbGciOiJub25lIn0.e30.',
  };
  // `npm start`'s composition root: JWTs from the fixture's JWKS file, the dashboard's admin
  // token, approvals, waits on the (fake) local browser.
  controlplane = await createTestControlplane({
    role: 'server',
    model: createPerTaskScriptModel(["Action: finished(content='ok')"]),
    env: {
      CLAWDIE_AUTH_REQUIRED: 'true',
      CLAWDIE_AUTH_JWKS_FILE: auth.file,
      CLAWDIE_ADMIN_TOKEN: ADMIN_TOKEN,
      CLAWDIE_MAX_STEPS: '3',
    },
  });
  tasks = controlplane.tasks;
  base = await controlplane.serve();
});
after(() => controlplane?.close());

/** Every documented operation: the document lists every route the app answers. */
function operations(): Operation[] {
  const document = buildOpenApiDocument('fuzz') as { paths: Record<string, object> };
  const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })),
  );
  assert.ok(documented.length >= 60, 'the OpenAPI document lists every route');
  return documented;
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
