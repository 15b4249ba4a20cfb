// The one mapping of how a task run ends (tasks/task-ending.ts), as a table, and a task that
// outlives its timeout_s through the whole run.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { VisionModel } from '../../../controlplane/src/agent/model/chat-types.js';
import {
  AppError,
  AuditWriteError,
  ModelError,
  OperatorError,
} from '../../../controlplane/src/errors.js';
import { endingOf, taskSignal } from '../../../controlplane/src/tasks/task-ending.js';
import { createFakeOperator } from '../../support/fake-operator.js';
import { runTestTask } from '../../support/submit-task.js';
import { createTestTaskDeps } from '../../support/test-task-deps.js';

/** A signal aborted the way the run's would be: by its abort, or by its timeout firing. */
async function endedBy(cause: 'abort' | 'timeout' | 'nothing'): Promise<AbortSignal> {
  const abort = new AbortController();
  const { signal, clear } = taskSignal(abort.signal, cause === 'timeout' ? 0.01 : 60);
  if (cause === 'abort') abort.abort();
  if (cause === 'timeout')
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
  clear();
  return signal;
}

describe('how a task run ends (endingOf)', () => {
  const cases: Array<{
    what: string;
    thrown: unknown;
    by: 'abort' | 'timeout' | 'nothing';
    status: string;
    code: string | null;
  }> = [
    {
      what: 'its timeout fired',
      thrown: new DOMException('x', 'AbortError'),
      by: 'timeout',
      status: 'error',
      code: 'TASK_TIMEOUT',
    },
    {
      what: 'it was aborted',
      thrown: new DOMException('x', 'AbortError'),
      by: 'abort',
      status: 'aborted',
      code: null,
    },
    {
      what: 'anything thrown once aborted',
      thrown: new Error('socket hang up'),
      by: 'abort',
      status: 'aborted',
      code: null,
    },
    {
      what: 'an abort error without the signal',
      thrown: new DOMException('x', 'AbortError'),
      by: 'nothing',
      status: 'aborted',
      code: null,
    },
    {
      what: 'the model failed',
      thrown: new ModelError('MODEL_TIMEOUT', 'no answer'),
      by: 'nothing',
      status: 'error',
      code: 'MODEL_TIMEOUT',
    },
    {
      what: 'the browser failed',
      thrown: new OperatorError('OPERATOR_UNAVAILABLE', 'gone'),
      by: 'nothing',
      status: 'error',
      code: 'OPERATOR_UNAVAILABLE',
    },
    {
      what: 'a saved session was refused',
      thrown: new AppError('SESSION_INJECT_FAILED', 'no'),
      by: 'nothing',
      status: 'error',
      code: 'SESSION_INJECT_FAILED',
    },
    {
      what: "a security decision's audit row could not be written",
      thrown: new AuditWriteError('policy-decided', new Error('database or disk is full')),
      by: 'nothing',
      status: 'error',
      code: 'AUDIT_WRITE_FAILED',
    },
    {
      what: 'an unexpected code',
      thrown: new AppError('SOMETHING_ELSE', 'no'),
      by: 'nothing',
      status: 'error',
      code: 'INTERNAL',
    },
    {
      what: 'a bug',
      thrown: new TypeError('x is undefined'),
      by: 'nothing',
      status: 'error',
      code: 'INTERNAL',
    },
  ];
  for (const { what, thrown, by, status, code } of cases) {
    it(`${what}: ${status}${code ? ` ${code}` : ''}`, async () => {
      const ending = endingOf(thrown, 4, await endedBy(by));
      assert.equal(ending.status, status);
      assert.equal(ending.error?.code ?? null, code);
      assert.equal(ending.stepCount, 4);
    });
  }

  it('says what the timeout was', async () => {
    const ending = endingOf(new Error('x'), 0, await endedBy('timeout'));
    assert.equal(ending.error?.message, 'task exceeded its timeout of 0.01 s');
  });
});

describe('a task past its timeout_s', () => {
  it('ends error TASK_TIMEOUT, its cut step recorded aborted and counted', async () => {
    const hanging: VisionModel = {
      name: 'hangs',
      isReplay: true,
      complete: (_request, signal) =>
        new Promise((_, reject) => {
          signal?.throwIfAborted();
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        }),
    };
    const { deps, repository, close } = createTestTaskDeps({ model: hanging });
    const result = await runTestTask({ instruction: 'x', timeout_s: 1 }, deps);
    assert.equal(result.status, 'error');
    assert.deepEqual(result.error, {
      code: 'TASK_TIMEOUT',
      message: 'task exceeded its timeout of 1 s',
    });
    assert.equal(result.step_count, 1);
    const row = await repository.getTask(result.trace_id);
    assert.equal(row?.errorCode, 'TASK_TIMEOUT');
    assert.deepEqual(
      (await repository.listSteps(result.trace_id)).map((step) => step.outcome),
      ['aborted'],
    );
    close();
  });
});

describe('a task whose time runs out before the model is asked', () => {
  it('sends no model request: the run ends TASK_TIMEOUT even with a model that never checks its signal', async () => {
    // The capture outlasts timeout_s (a busy host). This model would hang for ever on a signal
    // that was aborted before the call, so only the loop's own check can end the run.
    let calls = 0;
    const deaf: VisionModel = {
      name: 'deaf',
      isReplay: true,
      complete: () => {
        calls += 1;
        return new Promise(() => undefined);
      },
    };
    const fake = createFakeOperator().operator;
    const slow = {
      ...fake,
      // Taken, then answered late: the reply was on its way when the timer fired.
      screenshot: async (signal?: AbortSignal) => {
        const shot = await fake.screenshot(signal);
        await new Promise((resolve) => setTimeout(resolve, 1300));
        return shot;
      },
    };
    const { deps, close } = createTestTaskDeps({ model: deaf, operator: slow });
    const result = await runTestTask({ instruction: 'x', timeout_s: 1 }, deps);
    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'TASK_TIMEOUT');
    assert.equal(calls, 0, 'no model request after the time ran out');
    close();
  });
});
