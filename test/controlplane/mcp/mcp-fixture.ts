// A real TaskService over the fake operator and a replay model, for the MCP tests and stdio entry.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { createReplayModel } from '../../../controlplane/src/model/replay-model.js';
import type { BrowserOperator } from '../../../controlplane/src/operator/browser-operator.js';
import { openDatabase } from '../../../controlplane/src/store/database.js';
import { createScreenshotFiles } from '../../../controlplane/src/store/screenshot-files.js';
import { createTaskRepository } from '../../../controlplane/src/store/task-repository.js';
import {
  createTaskService,
  type StartedTask,
  type TaskService,
} from '../../../controlplane/src/tasks/task-service.js';
import { createFakeOperator } from '../../support/fake-operator.js';
import { createManualClock } from '../../support/manual-clock.js';
import { silentLogger } from '../../support/silent-logger.js';

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
  repository: ReturnType<typeof createTaskRepository>;
  maxSteps: number;
  /** Aborts running tasks, waits for them, and closes the database. */
  close(): Promise<void>;
}

/** A TaskService like task-routes.test.ts builds, recording the tasks it starts. */
export function createTestTasks(options: TestTasksOptions): TestTasks {
  const database = openDatabase(':memory:');
  const repository = createTaskRepository(database.db);
  const maxSteps = options.maxSteps ?? 5;
  let n = 0;
  const fake = createFakeOperator().operator;
  const inner = createTaskService({
    repository,
    screenshots: createScreenshotFiles(mkdtempSync(join(tmpdir(), 'clawdie-mcp-'))),
    model: createReplayModel(options.outputs),
    operator: options.realWaits ? withRealWaits(fake) : fake,
    clock: createManualClock(),
    logger: options.logger ?? silentLogger,
    loop: {
      coordinateMode: '1.5',
      actionSpace: 'browser',
      maxSteps,
      maxParseFailures: 3,
      imageWindow: 5,
      jpegQuality: 80,
      waitMs: options.waitMs ?? 0,
      scrollAmount: 500,
    },
    newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  });
  const started: StartedTask[] = [];
  const tasks: TaskService = {
    ...inner,
    start(input, onEvent) {
      const task = inner.start(input, onEvent);
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
      database.close();
    },
  };
}

/** The fake operator executes `wait` instantly; this one sleeps for it, honouring the signal. */
function withRealWaits(operator: BrowserOperator): BrowserOperator {
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
