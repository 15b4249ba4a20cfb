import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { VisionModel } from '../../../controlplane/src/agent/model/chat-types.js';
import { createReplayModel } from '../../../controlplane/src/agent/model/replay-model.js';
import { ModelError } from '../../../controlplane/src/errors.js';
import { runTestTask } from '../../support/submit-task.js';
import { createTestTaskDeps } from '../../support/test-task-deps.js';

describe('a task run', () => {
  it('returns the compact result and keeps the whole trace in SQLite and on disk', async () => {
    const model = createReplayModel([
      "Thought: open it\nAction: click(start_box='<|box_start|>(644,406)<|box_end|>')\n\ntype(content='abc')",
      'Thought: done\nAction: finished(content=\'{"price": "12.50"}\')',
    ]);
    const { deps, repository, close } = createTestTaskDeps({ model });
    const result = await runTestTask(
      { instruction: 'find the price', start_url: 'http://127.0.0.1:9/' },
      deps,
    );
    assert.equal(result.status, 'finished');
    assert.equal(result.summary, '{"price": "12.50"}');
    assert.deepEqual(result.result_data, { price: '12.50' });
    assert.equal(result.step_count, 2);
    assert.ok(result.final_screenshot_path?.endsWith('final.jpg'));
    assert.equal(Object.keys(result).includes('screenshot'), false);

    const task = await repository.getTask(result.trace_id);
    assert.equal(task?.status, 'finished');
    assert.equal(task?.startUrl, 'http://127.0.0.1:9/');
    const steps = await repository.listSteps(result.trace_id);
    assert.equal(steps.length, 2);
    for (const step of steps) {
      assert.ok(
        step.screenshotPath && existsSync(step.screenshotPath),
        `screenshot of step ${step.index}`,
      );
      assert.ok(step.rawPrediction?.includes('Action:'));
      assert.equal(typeof step.captureMs, 'number');
      assert.equal(typeof step.modelMs, 'number');
    }
    assert.equal(steps[0]?.outcome, 'acted');
    assert.equal(steps[0]?.thought, 'open it');
    const actions = await repository.listActions(steps[0]?.id ?? -1);
    assert.deepEqual(
      actions.map((a) => [a.type, a.cssX, a.cssY, a.status]),
      [
        ['click', 640, 400, 'ok'],
        ['type', null, null, 'ok'],
      ],
    );
    assert.equal(steps[1]?.outcome, 'finished');
    assert.ok(existsSync(result.final_screenshot_path ?? ''));
    close();
  });

  it('ends with a typed error and keeps the trace when the model fails', async () => {
    const failing: VisionModel = {
      name: 'down',
      isReplay: false,
      complete: async () => {
        throw new ModelError('MODEL_TIMEOUT', 'model did not answer within 100 ms');
      },
    };
    const { deps, repository, close } = createTestTaskDeps({ model: failing });
    const result = await runTestTask({ instruction: 'x' }, deps);
    assert.equal(result.status, 'error');
    assert.deepEqual(result.error, {
      code: 'MODEL_TIMEOUT',
      message: 'model did not answer within 100 ms',
    });
    const task = await repository.getTask(result.trace_id);
    assert.equal(task?.errorCode, 'MODEL_TIMEOUT');
    assert.ok(task?.endedAt);
    assert.equal((await repository.listSteps(result.trace_id)).length, 1);
    close();
  });

  it('records an abort as aborted', async () => {
    const { deps, repository, close } = createTestTaskDeps({
      model: createReplayModel(['Action: wait()']),
    });
    const controller = new AbortController();
    controller.abort();
    const result = await runTestTask({ instruction: 'x' }, deps, { signal: controller.signal });
    assert.equal(result.status, 'aborted');
    assert.equal((await repository.getTask(result.trace_id))?.status, 'aborted');
    close();
  });

  it('marks tasks left running by a crash as INTERRUPTED on the next start', async () => {
    const { deps, repository, close } = createTestTaskDeps({ model: createReplayModel(['x']) });
    await repository.createTask({
      id: 't1',
      instruction: 'x',
      startUrl: null,
      maxSteps: 3,
      modelName: 'm',
      coordinateMode: '1.5',
      createdAt: 1,
    });
    await repository.markStarted('t1', 2);
    assert.deepEqual(await repository.failInterrupted(3), [
      { id: 't1', actor: null, stepCount: 0 },
    ]);
    assert.equal((await repository.getTask('t1'))?.errorCode, 'INTERRUPTED');
    assert.equal((await repository.getTask('t1'))?.status, 'error');
    assert.ok(deps);
    close();
  });
});
