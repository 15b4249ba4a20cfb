// Issue 12, found item 3 (second half): a result_schema nested 100k deep was accepted (202) and
// killed the task at step 0. A result_schema is now bounded (depth, values, bytes) and compiled
// at admission, its `pattern`s on the linear-time engine; anything else is a 400 naming it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  compileResultSchema,
  RESULT_SCHEMA_LIMITS,
} from '../../controlplane/src/tasks/result-schema.js';
import { replayTaskApi } from './support/replay-task-api.js';

const { app, tasks } = await replayTaskApi(['Action: finished(content=\'{"a": 1}\')']);
const submitRaw = (resultSchemaJson: string) =>
  app.request('/v1/tasks', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: `{"instruction":"x","result_schema":${resultSchemaJson}}`,
  });

async function expect400(response: Response, pattern: RegExp): Promise<void> {
  const text = await response.text();
  assert.equal(response.status, 400, text.slice(0, 300));
  const body = JSON.parse(text) as { error: { code: string; message: string } };
  assert.equal(body.error.code, 'BAD_REQUEST');
  assert.match(body.error.message, /^result_schema: /);
  assert.match(body.error.message, pattern);
}

describe('result_schema bounds at admission', () => {
  it('refuses a schema nested 100k deep with 400 (it used to be accepted and kill the task)', async () => {
    const depth = 100_000;
    const deep = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    assert.ok(deep.length < 1024 * 1024, 'fits the body limit, so the schema check must catch it');
    await expect400(await submitRaw(deep), /nested deeper than 32 levels/);
    const nested = `${'{"type":"object","properties":{"a":'.repeat(40)}{}${'}}'.repeat(40)}`;
    await expect400(await submitRaw(nested), /nested deeper than 32 levels/);
  });

  it('refuses a schema with too many values or too many bytes', async () => {
    const wide = JSON.stringify({ enum: Array.from({ length: 20_000 }, (_, i) => i) });
    await expect400(await submitRaw(wide), /more than 10000 values/);
    const big = JSON.stringify({ type: 'string', description: 'x'.repeat(100_000) });
    await expect400(await submitRaw(big), /larger than 65536 bytes/);
    assert.deepEqual(RESULT_SCHEMA_LIMITS, { depth: 32, nodes: 10_000, bytes: 65_536 });
  });

  it('refuses schemas ajv cannot compile, and patterns the linear engine cannot run', async () => {
    await expect400(await submitRaw('{"type":"nope"}'), /not a valid JSON Schema/);
    await expect400(
      await submitRaw('{"type":"string","pattern":"(a)\\\\1"}'),
      /not a valid JSON Schema.*\(a\)\\1/,
    );
  });

  it('checks a final answer against a hostile pattern in linear time', () => {
    const check = compileResultSchema({ type: 'string', pattern: '^(a+)+$' });
    const started = performance.now();
    const result = check(JSON.stringify(`${'a'.repeat(30)}!`));
    const ms = performance.now() - started;
    assert.equal(result.ok, false);
    assert.ok(ms < 250, `pattern check took ${ms.toFixed(0)} ms`);
    assert.equal(check(JSON.stringify('aaa')).ok, true);
  });

  it('still runs a task with a sane schema to its parsed result', async () => {
    const response = await submitRaw(
      '{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}',
    );
    assert.equal(response.status, 202);
    const { trace_id: id } = (await response.json()) as { trace_id: string };
    for (let i = 0; i < 100 && tasks.isActive(id); i++) await new Promise((r) => setTimeout(r, 20));
    const task = (await (await app.request(`/v1/tasks/${id}`)).json()) as {
      result: { status: string; result_data: unknown };
    };
    assert.equal(task.result.status, 'finished');
    assert.deepEqual(task.result.result_data, { a: 1 });
  });
});
