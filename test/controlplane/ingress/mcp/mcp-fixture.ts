// A real TaskService over the fake operator and a replay model, for the MCP tests and stdio entry.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { createReplayModel } from '../../../../controlplane/src/agent/model/replay-model.js';
import type { BrowserOperator } from '../../../../controlplane/src/browser/operator/browser-operator.js';
import type { TaskRepository } from '../../../../controlplane/src/platform/store/task-repository.js';
import {
  createTaskService,
  type StartedTask,
  type TaskService,
} from '../../../../controlplane/src/tasks/task-service.js';
import { createFakeOperator } from '../../../support/fake-operator.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { createTestTaskDeps } from '../../../support/test-task-deps.js';

/** UI-TARS replies: a click at (644, 406) in 1288×812 model space = CSS (640, 400), then an answer. */
export const clickThenFinish = [
  "Thought: go\nAction: click(start_box='<|box_start|>(644,406)<|box_end|>')",
  "Action: type(content='demo')",
  "Action: finished(content='42')",
];

/** `count` replies of `wait()`: with real waits of `waitMs`, a task that runs until aborted. */
export const waitForever = (count = 500) => Array.from({ length: count }, () => 'Action: wait()');

export interface TestTasksOptions {
  outputs: readonly string[];
  /** `wait()` duration; with `realWaits` the operator really sleeps it. Default 0. */
  waitMs?: number;
  realWaits?: boolean;
  maxSteps?: number;
  logger?: Logger;
}

export interface TestTasks {
  tasks: TaskService;
  /** Every task started through `tasks`, in order. */
  started: StartedTask[];
  repository: TaskRepository;
  maxSteps: number;
  /** Aborts running tasks, waits for them, and closes the database. */
  close(): Promise<void>;
}

/** A TaskService like task-routes.test.ts builds, recording the tasks it starts. */
export function createTestTasks(options: TestTasksOptions): TestTasks {
  const maxSteps = options.maxSteps ?? 5;
  const fake = createFakeOperator().operator;
  const { deps, repository, close } = createTestTaskDeps({
    model: createReplayModel(options.outputs),
    operator: options.realWaits ? withRealWaits(fake) : fake,
    loop: { maxSteps, waitMs: options.waitMs ?? 0 },
  });
  const inner = createTaskService({ ...deps, logger: options.logger ?? silentLogger });
  const started: StartedTask[] = [];
  const tasks: TaskService = {
    ...inner,
    async start(input, onEvent) {
      const task = await inner.start(input, onEvent);
      started.push(task);
      return task;
    },
  };
  return {
    tasks,
    started,
    repository,
    maxSteps,
    async close() {
      await inner.close();
      close();
    },
  };
}

/** The fake operator executes `wait` instantly; this one sleeps for it, honouring the signal. */
/** The operator with `wait` actions that really take their time (abortable). */
export function withRealWaits(operator: BrowserOperator): BrowserOperator {
  return {
    ...operator,
    async execute(actions, signal) {
      for (const action of actions) {
        if (action.type === 'wait') await sleep(action.ms, undefined, signal ? { signal } : {});
      }
      return operator.execute(actions, signal);
    },
  };
}
