// A task run over a task store that answers late (as an asynchronous PostgreSQL store may): every
// row is still written, in the order the run asked for it, and the whole trace is there once the
// task is ended.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createReplayModel } from '../../../controlplane/src/agent/model/replay-model.js';
import type { TaskRepository } from '../../../controlplane/src/platform/store/task-repository.js';
import { SerialWrites } from '../../../controlplane/src/tasks/serial-writes.js';
import { silentLogger } from '../../support/silent-logger.js';
import { runTestTask } from '../../support/submit-task.js';
import { createTestTaskDeps } from '../../support/test-task-deps.js';

/** Milliseconds a method takes: the first writes of a run answer last. */
const lateness: Record<string, number> = { createTask: 15, insertStep: 20, markStarted: 10 };

/**
 * `repository` with every method answering late; `calls` lists them as they start. The first usage
 * totals answer only once the task's end was asked for (or after a second, when the run's write
 * queue holds the end back, as it must): out of order, they would overwrite the last totals.
 */
function lateStore(repository: TaskRepository) {
  const calls: string[] = [];
  let askEnd = () => {};
  const endAsked = new Promise<void>((resolve) => {
    askEnd = resolve;
  });
  const late = Object.fromEntries(
    Object.entries(repository).map(([name, method]) => [
      name,
      async (...args: unknown[]) => {
        const first = name === 'setUsage' && !calls.includes(name);
        calls.push(name);
        if (name === 'endTask') askEnd();
        await (first ? Promise.race([endAsked, sleep(1000)]) : sleep(lateness[name] ?? 0));
        return (method as (...a: unknown[]) => Promise<unknown>)(...args);
      },
    ]),
  ) as unknown as TaskRepository;
  return { late, calls };
}

describe('a task run over a store that answers late', () => {
  it('writes every row in order, the usage totals last-asked last, and ends the task after them', async () => {
    const model = createReplayModel([
      "Thought: open it\nAction: click(start_box='<|box_start|>(644,406)<|box_end|>')\n\ntype(content='abc')",
      "Thought: scroll\nAction: scroll(start_box='(500,500)', direction='down')",
      "Thought: done\nAction: finished(content='ok')",
    ]);
    const { deps, repository, close } = createTestTaskDeps({ model });
    const { late, calls } = lateStore(repository);
    const result = await runTestTask({ instruction: 'late store' }, { ...deps, repository: late });

    assert.equal(result.status, 'finished');
    const task = await repository.getTask(result.trace_id);
    assert.equal(task?.status, 'finished');
    assert.equal(result.usage?.model_calls, 3);
    assert.deepEqual(task?.usage, result.usage, 'the last totals, not an earlier late one');
    const steps = await repository.listSteps(result.trace_id);
    assert.deepEqual(
      steps.map((step) => [step.index, step.outcome, step.thought, typeof step.executeMs]),
      [
        [1, 'acted', 'open it', 'number'],
        [2, 'acted', 'scroll', 'number'],
        [3, 'finished', 'done', 'object'],
      ],
    );
    const actions = await repository.listActions(steps[0]?.id ?? -1);
    assert.deepEqual(
      actions.map((action) => action.type),
      ['click', 'type'],
    );
    const writes = calls.filter((name) => !name.startsWith('get') && !name.startsWith('list'));
    assert.equal(writes[0], 'createTask');
    assert.equal(writes.at(-1), 'endTask');
    assert.ok(writes.indexOf('markStarted') < writes.indexOf('insertStep'));
    close();
  });
});

describe('SerialWrites', () => {
  it('starts each write once the earlier ones have settled, a failed one included', async () => {
    const writes = new SerialWrites(silentLogger);
    const log: string[] = [];
    const write =
      (name: string, ms: number, fail = false) =>
      async () => {
        log.push(`${name} start`);
        await sleep(ms);
        log.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };
    const first = writes.run(write('a', 20));
    const failed = writes.run(write('b', 1, true));
    const queued = writes.queue(write('c', 1, true), 'c failed');
    const last = writes.run(write('d', 0));
    assert.equal(await first, 'a');
    await assert.rejects(failed, /b/);
    assert.equal(await queued, undefined);
    assert.equal(await last, 'd');
    assert.deepEqual(log, [
      'a start',
      'a end',
      'b start',
      'b end',
      'c start',
      'c end',
      'd start',
      'd end',
    ]);
  });
});
