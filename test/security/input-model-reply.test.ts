// Issue 12, found item 9: a 10,000-action model reply wrote 20,000 audit rows, its action rows
// failed to save ("Maximum call stack size exceeded") and raw replies were stored uncapped. A
// reply is now stored capped (64 KiB + marker) and one with more than 20 actions is a plan_error
// step the model is told about: no action runs, the trace is kept, the task goes on.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import {
  MAX_ACTIONS_PER_REPLY,
  MAX_STORED_REPLY_CHARS,
} from '../../controlplane/src/agent/loop/reply-limits.js';
import { createOpenAiCompatibleModel } from '../../controlplane/src/agent/model/openai-compatible-model.js';
import { ModelError } from '../../controlplane/src/errors.js';
import { openDatabase } from '../../controlplane/src/platform/store/database.js';
import { createTaskRepository } from '../../controlplane/src/platform/store/task-repository.js';
import { createPolicyFixture } from '../controlplane/governance/policy/policy-fixture.js';

const click = (i: number) => `click(start_box='<|box_start|>(${100 + (i % 800)},400)<|box_end|>')`;
const hugeReply = `Thought: click everything\nAction: ${Array.from({ length: 10_000 }, (_, i) => click(i)).join('\n\n')}`;

describe('oversized model replies', () => {
  const fixtures: { close(): Promise<void> }[] = [];
  after(async () => {
    for (const fixture of fixtures) await fixture.close();
  });

  it('refuses a 10,000-action reply as a plan_error step: bounded rows, reply capped, trace kept', async () => {
    const fixture = await createPolicyFixture({
      outputs: [hugeReply, `Action: ${click(1)}`, "Action: finished(content='done')"],
    });
    fixtures.push(fixture);
    const auditBefore = (await fixture.audit.list({ limit: 100_000 })).length;
    const started = await fixture.startTask({ instruction: 'go' }, 'default');
    assert.equal(started.status, 202);
    const { trace_id: id } = (await started.json()) as { trace_id: string };
    const task = await fixture.waitFor(id);
    assert.equal(task?.status, 'finished', JSON.stringify(task));

    const steps = await fixture.repository.listSteps(id);
    assert.equal(steps.length, 3, 'every step of the trace is kept');
    const [first, second] = steps;
    assert.equal(first?.outcome, 'plan_error');
    assert.match(first?.outcomeMessage ?? '', /10000 actions; at most 20/);
    assert.ok(
      (first?.rawPrediction?.length ?? Infinity) < MAX_STORED_REPLY_CHARS + 200,
      `stored reply is ${first?.rawPrediction?.length} characters`,
    );
    assert.match(first?.rawPrediction ?? '', /\[reply truncated: \d+ characters in all/);
    assert.equal((await fixture.repository.listActions(first?.id ?? -1)).length, 0);
    assert.equal(fixture.fake.executed.length, 1, "only the next reply's one click ran");
    assert.equal(second?.outcome, 'acted');
    assert.equal((await fixture.repository.listActions(second?.id ?? -1)).length, 1);

    const auditRows = (await fixture.audit.list({ limit: 100_000 })).length - auditBefore;
    assert.ok(auditRows < 20, `${auditRows} audit rows for one task`);
    assert.equal(MAX_ACTIONS_PER_REPLY, 20);
  });

  it('saves 10,000 action rows of one step without overflowing the stack', async () => {
    const database = openDatabase(':memory:');
    const repository = createTaskRepository(database.db);
    await repository.createTask({
      id: 't1',
      instruction: 'x',
      startUrl: null,
      maxSteps: 1,
      modelName: 'm',
      coordinateMode: '1.5',
      createdAt: 0,
    });
    const stepId = await repository.insertStep('t1', 1, 0);
    const rows = Array.from({ length: 10_000 }, (_, index) => ({
      stepId,
      taskId: 't1',
      index,
      type: 'click',
      modelAction: { name: 'click', args: {} },
      action: { type: 'click', x: 1, y: 1 },
      screenX: 1,
      screenY: 1,
      cssX: 1,
      cssY: 1,
      status: 'ok' as const,
      errorCode: null,
      errorMessage: null,
      durationMs: 1,
      navigated: false,
    }));
    await repository.insertActions(rows as Parameters<typeof repository.insertActions>[0]);
    assert.equal((await repository.listActions(stepId)).length, 10_000);
    database.close();
  });

  it('stops reading a model server reply past 4 MiB (chunked or declared) instead of buffering it', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let served = 0;
    const server = createServer((request, response) => {
      request.resume();
      const declared = request.url?.includes('declared');
      response.writeHead(200, {
        'content-type': 'application/json',
        ...(declared ? { 'content-length': String(200 * 1024 * 1024) } : {}),
      });
      response.write('{"choices":[{"message":{"content":"');
      const pump = () => {
        while (served < 200 * 1024 * 1024) {
          served += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end('"}}]}');
      };
      response.on('close', () => response.destroy());
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const path of ['/chunked/v1', '/declared/v1']) {
        served = 0;
        const model = createOpenAiCompatibleModel({
          baseUrl: `${base}${path}`,
          model: 'm',
          timeoutMs: 30_000,
          retries: 0,
          maxTokens: 16,
          temperature: 0,
        });
        const started = performance.now();
        await assert.rejects(
          model.complete({ messages: [{ role: 'user', content: 'hi' }] }),
          (error: unknown) =>
            error instanceof ModelError &&
            error.code === 'MODEL_BAD_RESPONSE' &&
            /larger than 4194304 bytes/.test(error.message),
        );
        const ms = performance.now() - started;
        assert.ok(ms < 5000, `${path}: took ${ms.toFixed(0)} ms`);
        assert.ok(served < 100 * 1024 * 1024, `${path}: the server got to send ${served} bytes`);
      }
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
