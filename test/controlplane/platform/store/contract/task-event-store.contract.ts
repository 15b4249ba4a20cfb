import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TaskRepository } from '../../../../../controlplane/src/platform/store/task-repository.js';
import type { TaskStreamEvent } from '../../../../../controlplane/src/tasks/task-events.js';
import { freshConnection, type StoreBackend } from './store-backends.js';

/** Past 2^31 ms, as every real timestamp is. */
const T = 1_795_000_000_000;

const createTask = (tasks: TaskRepository, id: string) =>
  tasks.createTask({
    id,
    instruction: `task ${id}`,
    startUrl: null,
    maxSteps: 10,
    modelName: 'ui-tars-1.5',
    coordinateMode: 'relative-1000',
    createdAt: T,
  });

const status = (id: string, value: 'queued' | 'running'): TaskStreamEvent => ({
  type: 'status',
  data: { trace_id: id, status: value },
});
const step = (id: string, n: number): TaskStreamEvent => ({
  type: 'step',
  data: {
    trace_id: id,
    step: n,
    step_count: n,
    max_steps: 10,
    outcome: 'ok',
    actions: ['click (640, 400)', 'type "ü ☃"'],
    thought: null,
    message: null,
    timings_ms: { capture: 1.5, model: 20, execute: 3 },
  },
});

/** Behaviour every TaskEventStore adapter must have. */
export function taskEventStoreContract(backend: StoreBackend): void {
  describe(`TaskEventStore contract: ${backend.name}`, { skip: backend.skip }, () => {
    it('returns a task’s events after a seq, oldest first, with their data intact', async (t) => {
      const { tasks, taskEvents } = await freshConnection(backend, t);
      await createTask(tasks, 'a');
      await createTask(tasks, 'b');
      const events = [status('a', 'queued'), status('a', 'running'), step('a', 1), step('a', 2)];
      for (const [index, event] of events.entries())
        await taskEvents.append('a', index + 1, event, T + index);
      await taskEvents.append('b', 1, status('b', 'queued'), T);
      assert.deepEqual(
        await taskEvents.since('a', 0),
        events.map((event, index) => ({ id: index + 1, event })),
      );
      assert.deepEqual(
        (await taskEvents.since('a', 2)).map((entry) => entry.id),
        [3, 4],
      );
      assert.deepEqual(await taskEvents.since('a', 4), []);
      assert.deepEqual(await taskEvents.since('b', 0), [{ id: 1, event: status('b', 'queued') }]);
      assert.deepEqual(await taskEvents.since('nobody', 0), []);
    });

    it('orders by seq, not by when a row was written', async (t) => {
      const { tasks, taskEvents } = await freshConnection(backend, t);
      await createTask(tasks, 'a');
      for (const seq of [10, 2, 1, 3]) await taskEvents.append('a', seq, step('a', seq), T);
      assert.deepEqual(
        (await taskEvents.since('a', 1)).map((entry) => entry.id),
        [2, 3, 10],
      );
    });

    it('refuses a seq that is stored already, and an event of a task that has no row', async (t) => {
      const { tasks, taskEvents } = await freshConnection(backend, t);
      await createTask(tasks, 'a');
      await taskEvents.append('a', 1, status('a', 'queued'), T);
      await assert.rejects(taskEvents.append('a', 1, status('a', 'running'), T + 1));
      await assert.rejects(taskEvents.append('ghost', 1, status('ghost', 'queued'), T));
      assert.deepEqual(await taskEvents.since('a', 0), [{ id: 1, event: status('a', 'queued') }]);
    });

    it('shows each connection (each replica) the events another one appends', async (t) => {
      const database = await backend.fresh();
      const one = await database.connect();
      const two = await database.connect();
      t.after(async () => {
        await one.close();
        await two.close();
      });
      await createTask(one.tasks, 'a');
      await one.taskEvents.append('a', 1, status('a', 'queued'), T);
      assert.deepEqual(await two.taskEvents.since('a', 0), [
        { id: 1, event: status('a', 'queued') },
      ]);
      // The second replica's append is seen by the first, and a conflicting one is refused there.
      await two.taskEvents.append('a', 2, step('a', 1), T + 1);
      await assert.rejects(one.taskEvents.append('a', 2, step('a', 9), T + 2));
      assert.deepEqual(
        (await one.taskEvents.since('a', 0)).map((entry) => [entry.id, entry.event.type]),
        [
          [1, 'status'],
          [2, 'step'],
        ],
      );
    });
  });
}
