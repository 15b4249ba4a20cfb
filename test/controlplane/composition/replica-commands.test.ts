// Abort, pause and resume across two controlplanes on one store (a shared SQLite data dir and one
// in-process notify channel, as two replicas on PostgreSQL would share LISTEN/NOTIFY): a task
// runs on replica A, the command arrives at replica B, and A's run stops, pauses or continues.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { VisionModel } from '../../../controlplane/src/agent/model/chat-types.js';
import { createLocalNotifyChannel } from '../../../controlplane/src/platform/notify/notify-channel.js';
import { openDatabase } from '../../../controlplane/src/platform/store/database.js';
import { createTaskRepository } from '../../../controlplane/src/platform/store/task-repository.js';
import { commandTask } from '../../../controlplane/src/tasks/task-commands.js';
import { createTestControlplane, type TestControlplane } from '../../support/controlplane.js';
import { submit } from '../../support/submit-task.js';

const script = [
  "Thought: Click the blue button.\nAction: click(start_box='<|box_start|>(644,406)<|box_end|>')",
  "Thought: Scroll a little.\nAction: scroll(start_box='<|box_start|>(300,300)<|box_end|>', direction='down')",
  'Thought: Done.\nAction: finished(content=\'{"answer": 42}\')',
];

/** A model whose calls wait until `open()` (or the task's abort), then follow `script`. */
function gatedModel() {
  let open = false;
  const waiting = new Set<() => void>();
  const model: VisionModel = {
    name: 'gated',
    isReplay: true,
    async complete(request, signal) {
      while (!open) {
        signal?.throwIfAborted();
        await new Promise<void>((resolve, reject) => {
          waiting.add(resolve);
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      }
      const turn = request.messages.filter((message) => message.role === 'assistant').length;
      return { text: script[turn] ?? 'Action: wait()', requestBytes: 1, usage: null };
    },
  };
  return {
    model,
    open() {
      open = true;
      for (const wake of waiting) wake();
      waiting.clear();
    },
    close() {
      open = false;
    },
  };
}

const until = async (what: string, check: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 500 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(await check(), `${what}: not reached`);
};

describe('task commands across replicas', () => {
  const channel = createLocalNotifyChannel();
  const gate = gatedModel();
  let a: TestControlplane;
  let b: TestControlplane;

  before(async () => {
    a = await createTestControlplane({ model: gate.model, adapters: { notify: channel } });
    // B shares A's data dir (two `embedded` instances may) and runs no task itself (no model).
    b = await createTestControlplane({ config: a.config, adapters: { notify: channel } });
  });
  after(async () => {
    await b?.close();
    await a?.close();
    await channel.close();
  });

  const statusOf = async (id: string) => (await b.repository.getTask(id))?.status;

  it('aborts through B, over REST, a task that runs on A', async () => {
    gate.close();
    const started = await submit(a.tasks, { instruction: 'abort me from the other replica' });
    await until('running on A', async () => (await statusOf(started.taskId)) === 'running');
    assert.equal(b.tasks.isActive(started.taskId), false);
    const response = await b.app.request(`/v1/tasks/${started.taskId}/abort`, { method: 'POST' });
    assert.equal(response.status, 202, await response.clone().text());
    assert.deepEqual(await response.json(), { trace_id: started.taskId, status: 'aborting' });
    assert.equal((await started.done).status, 'aborted');
    assert.equal(await statusOf(started.taskId), 'aborted');
    const forwarded = (await b.audit.list({ limit: 50 })).filter(
      (row) => row.type === 'task-command-forwarded',
    );
    assert.equal(forwarded.length, 1);
    assert.equal(forwarded[0]?.taskId, started.taskId);
    assert.deepEqual(forwarded[0]?.data, { command: 'abort', replica: ownerOf(a) });
  });

  it('pauses and resumes through B a task that runs on A', async (t) => {
    gate.close();
    const started = await submit(a.tasks, { instruction: 'pause me from the other replica' });
    const id = started.taskId;
    await until('running on A', async () => (await statusOf(id)) === 'running');
    const replicas = { tasks: b.tasks, replicas: b.replicas };
    const row = async () => {
      const task = await b.repository.getTask(id);
      assert.ok(task);
      return task;
    };
    const sent = performance.now();
    assert.equal(await commandTask(replicas, await row(), 'pause', 'tenant:ops/alice'), true);
    t.diagnostic(`paused through B in ${(performance.now() - sent).toFixed(1)} ms`);
    assert.equal(await statusOf(id), 'paused');
    assert.equal(a.tasks.isPaused?.(id), true);
    // The step under way ends; the next one waits for the resume.
    gate.open();
    await until('step 1 recorded', async () => (await a.repository.listSteps(id)).length === 1);
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal((await a.repository.listSteps(id)).length, 1, 'no step while paused');
    assert.equal(await commandTask(replicas, await row(), 'resume', 'tenant:ops/alice'), true);
    assert.notEqual(await statusOf(id), 'paused');
    const result = await started.done;
    assert.equal(result.status, 'finished');
    assert.equal(result.step_count, 3);
    // An ended task: refused as with one process.
    assert.equal(await commandTask(replicas, await row(), 'pause', 'tenant:ops/alice'), false);
  });

  it('answers TASK_OWNER_GONE for a task whose replica is gone, and 409 for an ended one', async () => {
    const database = openDatabase(a.config.databasePath);
    after(() => database.close());
    const orphan = createTaskRepository(database.db, { owner: 'replica-that-died' });
    await orphan.createTask({
      id: 'orphan-task',
      instruction: 'left running by a dead replica',
      startUrl: null,
      maxSteps: 5,
      modelName: 'gone',
      coordinateMode: '1.5',
      createdAt: Date.now(),
    });
    const response = await b.app.request('/v1/tasks/orphan-task/abort', { method: 'POST' });
    assert.equal(response.status, 409);
    assert.equal(await codeOf(response), 'TASK_OWNER_GONE');
    await orphan.endTask('orphan-task', {
      status: 'error',
      summary: null,
      resultData: null,
      errorCode: 'INTERRUPTED',
      errorMessage: 'swept',
      stepCount: 0,
      finalScreenshotPath: null,
      endedAt: Date.now(),
    });
    const ended = await b.app.request('/v1/tasks/orphan-task/abort', { method: 'POST' });
    assert.equal(ended.status, 409);
    assert.equal(await codeOf(ended), 'TASK_NOT_ACTIVE');
  });
});

const codeOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string } }).error.code;

/** A's instance id, as its task rows record it. */
function ownerOf(controlplane: TestControlplane): string {
  const self = controlplane.replicas?.self;
  assert.ok(self);
  return self;
}
