import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createReplayModel } from '../../../../controlplane/src/agent/model/replay-model.js';
import { createApp } from '../../../../controlplane/src/ingress/http/app.js';
import { createTaskService } from '../../../../controlplane/src/tasks/task-service.js';
import { createUnavailableTaskService } from '../../../../controlplane/src/tasks/unavailable-task-service.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { createTestTaskDeps } from '../../../support/test-task-deps.js';

const { deps, repository, close } = createTestTaskDeps({
  model: createReplayModel([
    "Thought: go\nAction: click(start_box='<|box_start|>(644,406)<|box_end|>')",
    "Action: finished(content='42')",
  ]),
  loop: { maxSteps: 5 },
});
after(close);
const tasks = createTaskService(deps);
const describeDeps = () => ({
  model: { name: 'replay', replay: true },
  jail: { url: 'http://127.0.0.1:1' },
});
const app = createApp({
  tasks,
  repository,
  logger: silentLogger,
  defaultMaxSteps: 5,
  describe: describeDeps,
});
const post = (path: string, body: string) =>
  app.request(path, { method: 'POST', body, headers: { 'content-type': 'application/json' } });

describe('controlplane task API', () => {
  it('starts a task, returns its trace id at once, and serves it at task and step level', async () => {
    const started = await post(
      '/v1/tasks',
      JSON.stringify({ instruction: 'read the answer', max_steps: 5 }),
    );
    assert.equal(started.status, 202);
    const { trace_id: id } = (await started.json()) as { trace_id: string };
    for (let i = 0; i < 100 && tasks.isActive(id); i++) await new Promise((r) => setTimeout(r, 20));

    const task = (await (await app.request(`/v1/tasks/${id}`)).json()) as Record<string, any>;
    assert.equal(task.task.status, 'finished');
    assert.equal(task.result.summary, '42');
    assert.equal(task.result.step_count, 2);
    assert.equal(task.steps.length, 2);
    assert.equal(task.steps[0].thought, 'go');

    const step = (await (await app.request(`/v1/tasks/${id}/steps/1`)).json()) as Record<
      string,
      any
    >;
    assert.equal(step.actions.length, 1);
    assert.deepEqual(step.actions[0].css_point, { x: 640, y: 400 });
    assert.equal(step.actions[0].status, 'ok');

    const image = await app.request(`/v1/tasks/${id}/steps/1/screenshot`);
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/jpeg');
    const bytes = new Uint8Array(await image.arrayBuffer());
    assert.deepEqual([...bytes.slice(0, 2)], [0xff, 0xd8]);

    const list = (await (await app.request('/v1/tasks?status=finished&limit=10')).json()) as Record<
      string,
      any
    >;
    assert.equal(list.total, 1);
    assert.equal(list.tasks[0].trace_id, id);
  });

  it('answers bad input with 400 JSON errors naming the field', async () => {
    const badJson = await post('/v1/tasks', '{nope');
    assert.equal(badJson.status, 400);
    assert.equal(((await badJson.json()) as any).error.code, 'BAD_REQUEST');
    const empty = await post('/v1/tasks', JSON.stringify({ instruction: '   ' }));
    assert.equal(empty.status, 400);
    assert.match(((await empty.json()) as any).error.message, /^instruction:/);
    const extra = await post('/v1/tasks', JSON.stringify({ instruction: 'x', colour: 'red' }));
    assert.equal(extra.status, 400);
    const badUrl = await post(
      '/v1/tasks',
      JSON.stringify({ instruction: 'x', start_url: 'file:///etc/passwd' }),
    );
    assert.match(((await badUrl.json()) as any).error.message, /^start_url:/);
    const badQuery = await app.request('/v1/tasks?limit=0');
    assert.equal(badQuery.status, 400);
    const badStep = await app.request('/v1/tasks/nope/steps/x');
    assert.equal(badStep.status, 404);
  });

  it('404s unknown tasks and 409s aborting an ended one', async () => {
    const missing = await app.request('/v1/tasks/does-not-exist');
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as any).error.code, 'NOT_FOUND');
    const [ended] = (await repository.listTasks({ limit: 1, offset: 0 })).tasks;
    const abort = await app.request(`/v1/tasks/${ended?.id}/abort`, { method: 'POST' });
    assert.equal(abort.status, 409);
  });

  it('answers 503 with a clear message when no model is configured', async () => {
    const bare = createApp({
      tasks: createUnavailableTaskService(),
      repository,
      logger: silentLogger,
      defaultMaxSteps: 5,
      describe: describeDeps,
    });
    const response = await bare.request('/v1/tasks', {
      method: 'POST',
      body: JSON.stringify({ instruction: 'x' }),
    });
    assert.equal(response.status, 503);
    assert.match(((await response.json()) as any).error.message, /CLAWDIE_MODEL_URL/);
    const health = (await (await bare.request('/health')).json()) as any;
    assert.equal(health.status, 'ok');
  });
});

describe('OpenAPI document', () => {
  it('is served at /openapi.json and describes the input and result from the zod schemas', async () => {
    const doc = (await (await app.request('/openapi.json')).json()) as any;
    assert.equal(doc.openapi, '3.1.0');
    assert.ok(doc.paths['/v1/tasks'].post);
    assert.ok(doc.paths['/v1/tasks/{id}/events'].get);
    const input = doc.components.schemas.BrowserRunTaskInput;
    assert.deepEqual(input.required, ['instruction']);
    assert.equal(input.additionalProperties, false);
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
    assert.deepEqual(doc.components.schemas.CompactResult.properties.status.enum, [
      'finished',
      'max_steps',
      'error',
      'aborted',
      'call_user',
    ]);
  });

  it('documents /v1/approvals from the route schemas', async () => {
    const doc = (await (await app.request('/openapi.json')).json()) as any;
    const list = doc.paths['/v1/approvals'].get;
    assert.deepEqual(list.parameters.map((parameter: any) => parameter.name).sort(), [
      'limit',
      'status',
    ]);
    const status = list.parameters.find((parameter: any) => parameter.name === 'status');
    assert.deepEqual(status.schema.enum, ['pending', 'approved', 'denied', 'expired']);
    assert.equal(status.in, 'query');
    assert.ok(doc.paths['/v1/approvals/{id}'].get);
    const answer = doc.paths['/v1/approvals/{id}'].post;
    assert.equal(
      answer.requestBody.content['application/json'].schema.$ref,
      '#/components/schemas/ApprovalAnswer',
    );
    assert.ok(answer.responses['409']);
    assert.deepEqual(doc.components.schemas.ApprovalAnswer.properties.decision.enum, [
      'approve',
      'deny',
    ]);
    const approval = doc.components.schemas.Approval;
    assert.ok(approval.required.includes('trace_id'));
    assert.deepEqual(approval.properties.kind.enum, [
      'credential',
      'navigation',
      'action',
      'call_user',
      'model_safety',
      'file_upload',
    ]);
  });

  it('declares a bearer JWT scheme and requires it, with the route scope, on every /v1 operation', async () => {
    const doc = (await (await app.request('/openapi.json')).json()) as any;
    assert.deepEqual(doc.components.securitySchemes.bearer, {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: doc.components.securitySchemes.bearer.description,
    });
    const operations = Object.entries(doc.paths).flatMap(([path, methods]: [string, any]) =>
      Object.entries(methods).map(([method, operation]: [string, any]) => ({
        path,
        method,
        operation,
      })),
    );
    assert.ok(operations.length >= 10);
    for (const { path, method, operation } of operations) {
      // The public routes and the dashboard (own cookie login) are in the document too.
      if (!path.startsWith('/v1/')) continue;
      assert.deepEqual(operation.security, [{ bearer: [] }], `${method} ${path}`);
      assert.ok(operation.responses['401'] && operation.responses['403'], `${method} ${path}`);
    }
    assert.match(doc.paths['/v1/tasks/{id}'].get.description, /tasks:read/);
    assert.match(doc.paths['/v1/tasks/{id}/abort'].post.description, /tasks:run/);
    assert.match(doc.paths['/v1/approvals/{id}'].post.description, /`admin`/);
  });
});
