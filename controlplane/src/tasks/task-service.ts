import type { LoopEvent } from '../agent/loop-types.js';
import { createTaskRow, type RunBrowserTaskDeps, runBrowserTask } from './run-browser-task.js';
import type { BrowserRunTaskInput, CompactResult } from './task-input.js';

export interface StartedTask {
  taskId: string;
  done: Promise<CompactResult>;
}

export interface TaskService {
  /** Queues a task (its row exists on return, status `queued`) and runs it when the browser is free. */
  start(input: BrowserRunTaskInput, onEvent?: (event: LoopEvent) => void): StartedTask;
  /** Aborts a queued or running task; false when it is not active. */
  abort(taskId: string): boolean;
  isActive(taskId: string): boolean;
  /** Aborts everything and waits for the running task to be recorded. */
  close(): Promise<void>;
}

/**
 * Runs tasks one at a time against the single browser this controlplane drives (until hostd gives
 * each task its own clone). Every task gets an AbortController; `close()` aborts all of them.
 */
export function createTaskService(deps: RunBrowserTaskDeps): TaskService {
  const active = new Map<string, AbortController>();
  let chain: Promise<unknown> = Promise.resolve();

  return {
    start(input, onEvent) {
      const taskId = deps.newId();
      createTaskRow(taskId, input, deps);
      const controller = new AbortController();
      active.set(taskId, controller);
      const done = chain.then(() =>
        runBrowserTask(input, deps, {
          taskId,
          signal: controller.signal,
          ...(onEvent ? { onEvent: (event: LoopEvent) => onEvent(event) } : {}),
        }).finally(() => active.delete(taskId)),
      );
      chain = done.catch(() => undefined);
      return { taskId, done };
    },
    abort(taskId) {
      const controller = active.get(taskId);
      if (!controller) return false;
      controller.abort();
      return true;
    },
    isActive: (taskId) => active.has(taskId),
    async close() {
      for (const controller of active.values()) controller.abort();
      await chain;
    },
  };
}
