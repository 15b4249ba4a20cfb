import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createReplayModel } from '../../../../controlplane/src/agent/model/replay-model.js';
import { createApp } from '../../../../controlplane/src/ingress/http/app.js';
import { createTaskService } from '../../../../controlplane/src/tasks/task-service.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { submit } from '../../../support/submit-task.js';
import { createTestTaskDeps } from '../../../support/test-task-deps.js';
import { testTaskEventFeed } from '../../../support/test-task-event-feed.js';

const { deps, repository, db, close } = createTestTaskDeps({
  model: createReplayModel([
    "Thought: first\nAction: click(start_box='<|box_start|>(644,406)<|box_end|>')",
    "Action: type(content='demo')",
    "Action: finished(content='done')",
  ]),
  loop: { maxSteps: 5 },
});
after(close);
const tasks = createTaskService(deps);
const app = createApp({
  tasks,
  repository,
  logger: silentLogger,
  defaultMaxSteps: 5,
  describe: () => ({ model: { name: 'r', replay: true }, jail: { url: 'x' } }),
});

/** An app over a second task service on the same database, as another process would run it. */
function otherProcess() {
  return createApp({
    tasks: createTaskService({ ...deps, feed: testTaskEventFeed(db) }),
    repository,
    logger: silentLogger,
    defaultMaxSteps: 5,
    describe: () => ({ model: { name: 'r', replay: true }, jail: { url: 'x' } }),
  });
}

interface SseEvent {
  id: string;
  event: string;
  data: any;
}
function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.includes('data:'))
    .map((block) => {
      const field = (name: string) =>
        block
          .split('\n')
          .find((line) => line.startsWith(`${name}:`))
          ?.slice(name.length + 1)
          .trim() ?? '';
      return { id: field('id'), event: field('event'), data: JSON.parse(field('data')) };
    });
}

describe('task event stream (SSE)', () => {
  it('streams status, one event per step and the final result, then closes', async () => {
    const { taskId } = await submit(tasks, { instruction: 'stream me' });
    const response = await app.request(`/v1/tasks/${taskId}/events`);
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    const events = parseSse(await response.text());
    assert.deepEqual(
      events.map((e) => e.event),
      ['status', 'status', 'step', 'step', 'step', 'result'],
    );
    assert.deepEqual(
      events.map((e) => e.id),
      ['1', '2', '3', '4', '5', '6'],
    );
    assert.deepEqual(events[2]?.data.actions, ['click (640, 400)']);
    assert.equal(events[2]?.data.step, 1);
    assert.equal(events[2]?.data.max_steps, 5);
    assert.equal(events[3]?.data.actions[0], 'type "demo"');
    assert.equal(events[5]?.data.status, 'finished');
    assert.equal(events[5]?.data.summary, 'done');
  });

  it('resumes after Last-Event-ID with only the missed events', async () => {
    const [task] = (await repository.listTasks({ limit: 1, offset: 0 })).tasks;
    const response = await app.request(`/v1/tasks/${task?.id}/events`, {
      headers: { 'last-event-id': '4' },
    });
    const events = parseSse(await response.text());
    assert.deepEqual(
      events.map((e) => [e.id, e.event]),
      [
        ['5', 'step'],
        ['6', 'result'],
      ],
    );
  });

  it('closes at once when an ended task is resumed at or past its last event', async () => {
    const [task] = (await repository.listTasks({ limit: 1, offset: 0 })).tasks;
    for (const lastId of ['6', '7', '1000']) {
      const response = await app.request(`/v1/tasks/${task?.id}/events`, {
        headers: { 'last-event-id': lastId },
      });
      const text = await Promise.race([
        response.text(),
        new Promise<string>((_, reject) =>
          setTimeout(
            () => reject(new Error(`Last-Event-ID ${lastId}: stream still open`)),
            2000,
          ).unref(),
        ),
      ]);
      assert.deepEqual(parseSse(text), []);
    }
  });

  it('streams the stored events of a task another process ran, resuming after Last-Event-ID', async () => {
    const [task] = (await repository.listTasks({ limit: 1, offset: 0 })).tasks;
    // Another process on the same database: its own in-memory log and its own feed.
    const other = otherProcess();
    const events = parseSse(await (await other.request(`/v1/tasks/${task?.id}/events`)).text());
    assert.deepEqual(
      events.map((e) => [e.id, e.event]),
      [
        ['1', 'status'],
        ['2', 'status'],
        ['3', 'step'],
        ['4', 'step'],
        ['5', 'step'],
        ['6', 'result'],
      ],
    );
    assert.equal(events[5]?.data.summary, 'done');
    const resumed = await other.request(`/v1/tasks/${task?.id}/events`, {
      headers: { 'last-event-id': '3' },
    });
    assert.deepEqual(
      parseSse(await resumed.text()).map((e) => e.id),
      ['4', '5', '6'],
    );
  });

  it('rebuilds the stream from the steps for a task from before events were stored', async () => {
    const [task] = (await repository.listTasks({ limit: 1, offset: 0 })).tasks;
    db.$client.prepare('DELETE FROM task_events WHERE task_id = ?').run(task?.id);
    const events = parseSse(
      await (await otherProcess().request(`/v1/tasks/${task?.id}/events`)).text(),
    );
    assert.deepEqual(
      events.map((e) => e.event),
      ['step', 'step', 'step', 'result'],
    );
    assert.equal(events[3]?.data.summary, 'done');
  });

  it('404s the stream of an unknown task', async () => {
    assert.equal((await app.request('/v1/tasks/nope/events')).status, 404);
  });
});

describe('task event stream under fast events', () => {
  it('delivers the result even when it arrives while an earlier event is being sent', async () => {
    const garbage = {
      name: 'garbage',
      isReplay: true,
      complete: async () => ({ text: 'no action here', requestBytes: 1, usage: null }),
    };
    const fast = createTaskService({ ...deps, model: garbage });
    const fastApp = createApp({
      tasks: fast,
      repository,
      logger: silentLogger,
      defaultMaxSteps: 5,
      describe: () => ({ model: { name: 'r', replay: true }, jail: { url: 'x' } }),
    });
    for (let round = 0; round < 5; round++) {
      const { taskId } = await submit(fast, { instruction: `fast ${round}` });
      const text = await Promise.race([
        (await fastApp.request(`/v1/tasks/${taskId}/events`)).text(),
        new Promise<string>((_, reject) =>
          setTimeout(() => reject(new Error('stream hung')), 5000),
        ),
      ]);
      const events = parseSse(text);
      assert.equal(events.at(-1)?.event, 'result');
      assert.equal(events.at(-1)?.data.error.code, 'PARSE_FAILED');
    }
  });
});
