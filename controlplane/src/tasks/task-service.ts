import type { LoopEvent } from '../agent/loop-types.js';
import { PauseGate } from './pause-gate.js';
import { createTaskRow, type RunBrowserTaskDeps, runBrowserTask } from './run-browser-task.js';
import { createStepTracker, TaskEventLog } from './task-events.js';
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
  /** Pauses a queued or running task before its next step; false when it is not active. */
  pause?(taskId: string): boolean;
  /** Lets a paused task continue; false when it is not active. */
  resume?(taskId: string): boolean;
  isPaused?(taskId: string): boolean;
  /** Numbered status/step/result events of recent tasks, for SSE and progress. */
  readonly events: TaskEventLog;
  /** Aborts everything and waits for the running task to be recorded. */
  close(): Promise<void>;
}

/**
 * Runs tasks one at a time against the single browser this controlplane drives (until hostd gives
 * each task its own clone). Every task gets an AbortController; `close()` aborts all of them.
 */
export function createTaskService(
  deps: RunBrowserTaskDeps,
  events = new TaskEventLog(),
): TaskService {
  const active = new Map<string, AbortController>();
  const gates = new Map<string, PauseGate>();
  let chain: Promise<unknown> = Promise.resolve();

  function run(
    taskId: string,
    input: BrowserRunTaskInput,
    controller: AbortController,
    gate: PauseGate,
    onEvent?: (event: LoopEvent) => void,
  ) {
    const track = createStepTracker(taskId, input.max_steps ?? deps.loop.maxSteps);
    events.append(taskId, { type: 'status', data: { trace_id: taskId, status: 'running' } });
    return runBrowserTask(input, deps, {
      taskId,
      signal: controller.signal,
      waitWhilePaused: (signal) => gate.wait(signal),
      onEvent: (event) => {
        const step = track(event);
        if (step) events.append(taskId, { type: 'step', data: step });
        onEvent?.(event);
      },
    }).then((result) => {
      events.append(taskId, { type: 'result', data: result });
      return result;
    });
  }

  return {
    events,
    start(input, onEvent) {
      const taskId = deps.newId();
      createTaskRow(taskId, input, deps);
      events.append(taskId, { type: 'status', data: { trace_id: taskId, status: 'queued' } });
      const controller = new AbortController();
      const gate = new PauseGate();
      active.set(taskId, controller);
      gates.set(taskId, gate);
      const done = chain.then(() =>
        run(taskId, input, controller, gate, onEvent).finally(() => {
          active.delete(taskId);
          gates.delete(taskId);
        }),
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
    pause(taskId) {
      gates.get(taskId)?.pause();
      return gates.has(taskId);
    },
    resume(taskId) {
      gates.get(taskId)?.resume();
      return gates.has(taskId);
    },
    isPaused: (taskId) => gates.get(taskId)?.paused ?? false,
    async close() {
      for (const controller of active.values()) controller.abort();
      await chain;
    },
  };
}
