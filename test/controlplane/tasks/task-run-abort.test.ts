import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { LoopEvent } from '../../../controlplane/src/agent/loop/loop-types.js';
import type { VisionModel } from '../../../controlplane/src/agent/model/chat-types.js';
import { createProgressTracker } from '../../../controlplane/src/ingress/mcp/progress.js';
import type { CompactResult } from '../../../controlplane/src/tasks/task-input.js';
import { createTestControlplane } from '../../support/controlplane.js';
import { submit } from '../../support/submit-task.js';

/**
 * Answers `Action: wait()` for the first `quick` turns of each task, then holds the model call
 * until the task is aborted; `held` resolves when a task reaches its held turn.
 */
function holdingModel(quick: number) {
  const held: Array<() => void> = [];
  const model: VisionModel = {
    name: 'holding',
    isReplay: true,
    async complete(request, signal) {
      const turn = request.messages.filter((message) => message.role === 'assistant').length;
      if (turn < quick) return { text: 'Action: wait()', requestBytes: 0, usage: null };
      held.shift()?.();
      await new Promise((_, reject) => {
        if (signal?.aborted) reject(signal.reason);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
      throw new Error('unreachable');
    },
  };
  const nextHold = () => new Promise<void>((resolve) => held.push(resolve));
  return { model, nextHold };
}

/** Fails instead of hanging when `promise` does not settle within `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The whole controlplane (one local fake browser: one task at a time) over the holding model. */
async function setup(quick: number) {
  const { model, nextHold } = holdingModel(quick);
  const controlplane = await createTestControlplane({
    model,
    env: { CLAWDIE_MAX_STEPS: '20', CLAWDIE_WAIT_MS: '0' },
  });
  after(() => controlplane.close());
  const { tasks, repository, app } = controlplane;
  return { tasks, repository, app, nextHold };
}

describe('aborting a queued task', () => {
  it('ends it at once (aborted, never started) and frees its place in the queue', async () => {
    const { tasks, repository, app, nextHold } = await setup(0);
    const holding = nextHold();
    const first = await submit(tasks, { instruction: 'holds the only browser' });
    await within(holding, 5000, 'the first task reaching its model call');
    const second = await submit(tasks, { instruction: 'queued behind it, then aborted' });
    const third = await submit(tasks, { instruction: 'queued behind both' });
    assert.equal((await repository.getTask(second.taskId))?.status, 'queued');

    const response = await app.request(`/v1/tasks/${second.taskId}/abort`, { method: 'POST' });
    assert.equal(response.status, 202);
    const result = await within(second.done, 2000, 'the queued task ending on abort');
    assert.equal(result.status, 'aborted');
    assert.equal(result.step_count, 0);
    const row = await repository.getTask(second.taskId);
    assert.equal(row?.status, 'aborted');
    assert.equal(row?.startedAt, null, 'a task that never ran has no started_at');
    assert.notEqual(row?.endedAt, null);
    assert.equal(tasks.isActive(second.taskId), false);
    const streamed = tasks.events.since(second.taskId, 0).map(({ event }) => event.type);
    assert.deepEqual(streamed, ['status', 'result'], 'queued, then the result; never running');

    // The third task, not the aborted one, gets the browser when the first lets go.
    const thirdHolding = nextHold();
    tasks.abort(first.taskId);
    await within(first.done, 2000, 'the running task ending on abort');
    await within(thirdHolding, 5000, 'the third task running');
    assert.equal((await repository.getTask(third.taskId))?.status, 'running');
    tasks.abort(third.taskId);
    await third.done;
  });
});

describe('step counts after an abort', () => {
  it('records the unfinished step as aborted and counts it the same on REST, SSE and MCP progress', async () => {
    const { tasks, repository, app, nextHold } = await setup(2);
    const loopEvents: LoopEvent[] = [];
    const holding = nextHold();
    const task = await submit(tasks, { instruction: 'two waits, then hangs' }, (event) =>
      loopEvents.push(event),
    );
    await within(holding, 5000, 'the third step reaching the model');
    tasks.abort(task.taskId);
    const result: CompactResult = await within(task.done, 2000, 'the abort');
    assert.equal(result.status, 'aborted');
    assert.equal(result.step_count, 3);

    const view = (await (await app.request(`/v1/tasks/${task.taskId}`)).json()) as {
      task: { step_count: number };
      steps: { index: number; outcome: string }[];
    };
    assert.equal(view.task.step_count, 3);
    assert.deepEqual(
      view.steps.map((step) => step.outcome),
      ['acted', 'acted', 'aborted'],
      'no step is left pending once the task has ended',
    );
    assert.equal((await repository.getTask(task.taskId))?.stepCount, 3);

    const sseSteps = tasks.events
      .since(task.taskId, 0)
      .flatMap(({ event }) => (event.type === 'step' ? [event.data] : []));
    assert.deepEqual(
      sseSteps.map((step) => [step.step, step.outcome, step.step_count]),
      [
        [1, 'acted', 1],
        [2, 'acted', 2],
        [3, 'aborted', 3],
      ],
    );

    const track = createProgressTracker(20);
    const progress = loopEvents.flatMap((event) => track(event) ?? []);
    assert.equal(progress.length, 3, 'one MCP progress update per counted step');
    assert.equal(progress.at(-1)?.progress, 3);
    assert.match(progress.at(-1)?.message ?? '', /^step 3\/20: aborted/);
  });
});

describe('aborting a paused task', () => {
  it('ends it at once: the pause does not hold the abort back', async () => {
    const { tasks, repository, app } = await setup(5);
    const task = await submit(tasks, { instruction: 'paused before its first step' });
    assert.equal(await tasks.pause?.(task.taskId), true);
    for (let i = 0; i < 200 && (await repository.getTask(task.taskId))?.startedAt === null; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal((await repository.getTask(task.taskId))?.status, 'paused');
    const response = await app.request(`/v1/tasks/${task.taskId}/abort`, { method: 'POST' });
    assert.equal(response.status, 202);
    const result = await within(task.done, 2000, 'the paused task ending on abort');
    assert.equal(result.status, 'aborted');
    assert.equal(result.step_count, 0);
    assert.equal((await repository.getTask(task.taskId))?.status, 'aborted');
    const statuses = tasks.events
      .since(task.taskId, 0)
      .flatMap(({ event }) => (event.type === 'status' ? [event.data.status] : []));
    assert.deepEqual(statuses, ['queued', 'paused']);
  });
});
