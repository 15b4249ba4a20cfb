import type { LoopEvent } from '../agent/loop-types.js';
import type { Principal } from '../auth/scopes.js';
import {
  type BrowserLease,
  type BrowserProvider,
  createSingleBrowserProvider,
} from '../jails/browser-provider.js';
import { leaseBrowser } from '../jails/lease-browser.js';
import type { BrowserOperator } from '../operator/browser-operator.js';
import type { TaskAdmission } from '../policy/task-admission.js';
import { createTaskGuards, type TaskGuards } from '../policy/task-guards.js';
import { handoffForTask } from '../takeover/handoff-for-task.js';
import type { TakeoverDeps } from '../takeover/task-handoff.js';
import { createJailPageProbe } from '../wait/jail-page-probe.js';
import { createDesktopSurfaceOperator } from './desktop-surface-operator.js';
import { createDesktopTaskOperator } from './desktop-task-operator.js';
import { PauseGate } from './pause-gate.js';
import { createTaskRow, type RunBrowserTaskDeps, runBrowserTask } from './run-browser-task.js';
import { createStepTracker, TaskEventLog } from './task-events.js';
import type { BrowserRunTaskInput, CompactResult } from './task-input.js';
import type { TaskPlan } from './task-plan.js';

export interface StartedTask {
  taskId: string;
  done: Promise<CompactResult>;
}

export interface TaskService {
  /**
   * Admission, before anything starts: the plan `input` runs with for `principal` (its tenant's
   * policy, or none for a service built without one). Throws AppError POLICY_DENIED /
   * INVALID_INPUT (400) when it may not run; the decision is audited.
   */
  admit(input: BrowserRunTaskInput, principal: Principal): TaskPlan;
  /**
   * Queues an admitted task (its row exists on return, status `queued`, under the plan's tenant
   * and actor) and runs it when a browser is free, gated by what its plan says.
   */
  start(plan: TaskPlan, onEvent?: (event: LoopEvent) => void): StartedTask;
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

export interface TaskServiceDeps extends RunBrowserTaskDeps {
  /** Turns input into plans: `createPolicyAdmission`, or `allowAllAdmission(why)` (no policy). */
  admission: TaskAdmission;
  /**
   * Builds each task's gate from its plan once it holds its browser. Default: the policy's action
   * gate without an approver (needs_approval is refused) for policy plans, `allowAllGate` else.
   */
  guards?: TaskGuards;
  /**
   * Drives a lease's X display for `surface: 'desktop'` tasks. Default: the desktop surface of the
   * clone's own jail-service (xwd + xdotool run inside the clone), over HTTP.
   */
  desktopOperator?: (lease: BrowserLease) => BrowserOperator;
  /** Human takeover for tasks whose policy has `handoff` (takeover/task-handoff.ts). */
  takeover?: TakeoverDeps | undefined;
}

/**
 * Runs tasks on browsers from `provider`: by default the one browser in `deps.operator`, one task
 * at a time; with hostd, a fresh clone per task, `provider.concurrency` at once. The browser is
 * released (the clone destroyed) whatever the ending. A desktop task's loop drives the lease's
 * whole display while start_url (and the policy gate) use its browser. Every task gets an
 * AbortController; `close()` aborts all of them and waits until they are recorded.
 */
export function createTaskService(
  deps: TaskServiceDeps,
  events = new TaskEventLog(),
  provider: BrowserProvider = createSingleBrowserProvider(deps.operator),
): TaskService {
  const active = new Map<string, AbortController>();
  const gates = new Map<string, PauseGate>();
  const running = new Set<Promise<unknown>>();
  const slots = createSlots(provider.concurrency);
  const desktopOperator = deps.desktopOperator ?? ((lease) => createDesktopSurfaceOperator(lease));
  const guards = deps.guards ?? createTaskGuards({ audit: deps.audit, logger: deps.logger });

  /** The loop's operator (the lease's browser, or its display for a desktop task) and browser. */
  function operatorsFor(input: BrowserRunTaskInput, lease: BrowserLease) {
    const desktop = input.surface === 'desktop' && lease.display;
    return {
      operator: desktop
        ? createDesktopTaskOperator(desktopOperator(lease), lease.operator)
        : lease.operator,
      browser: lease.operator,
    };
  }

  function startRecording(taskId: string) {
    if (deps.recorder) return deps.recorder.start(taskId);
    deps.logger.warn(
      { taskId },
      'task asked to be recorded, but recording is unavailable (no ffmpeg at /usr/bin/ffmpeg); running it without a recording',
    );
    return undefined;
  }

  async function run(
    taskId: string,
    plan: TaskPlan,
    controller: AbortController,
    pauses: PauseGate,
    onEvent?: (event: LoopEvent) => void,
  ) {
    const { input } = plan;
    const track = createStepTracker(taskId, input.max_steps ?? deps.loop.maxSteps);
    const status = pauses.paused ? 'paused' : 'running';
    events.append(taskId, { type: 'status', data: { trace_id: taskId, status } });
    // The lease goes to this run directly; the registry only indexes it for readers.
    const lease = await leaseBrowser(provider, taskId, input, controller.signal);
    const guard = guards(plan, { taskId, browser: lease.operator, events });
    const recording = input.record ? startRecording(taskId) : undefined;
    const result = await runBrowserTask(
      plan,
      { ...deps, ...operatorsFor(input, lease) },
      {
        gate: guard.gate,
        wrapOperator: guard.wrapOperator,
        taskId,
        signal: controller.signal,
        waitWhilePaused: (signal) => pauses.wait(signal),
        handoff: handoffForTask(deps.takeover, plan, { taskId, lease, events }),
        probe: lease.service ? createJailPageProbe(lease.service) : undefined,
        onEvent: (event) => {
          const step = track(event);
          // step_count as the task row has it (it advances as each step is recorded).
          if (step) {
            const stepCount = deps.repository.getTask(taskId)?.stepCount ?? step.step;
            events.append(taskId, { type: 'step', data: { ...step, step_count: stepCount } });
          }
          if (event.type === 'task-stuck')
            events.append(taskId, {
              type: 'stuck',
              data: { trace_id: taskId, step: event.step, summary: event.summary },
            });
          onEvent?.(event);
        },
      },
    ).finally(async () => {
      guard.close();
      await recording?.stop();
      await lease.release();
    });
    events.append(taskId, { type: 'result', data: result });
    return result;
  }

  /** Switches the gate, the row's status (`paused` ↔ `queued`/`running`) and tells SSE. */
  function setPaused(taskId: string, paused: boolean): boolean {
    const gate = gates.get(taskId);
    if (!gate) return false;
    if (gate.paused === paused) return true;
    if (paused) gate.pause();
    else gate.resume();
    deps.repository.setPaused(taskId, paused);
    const status = deps.repository.getTask(taskId)?.status;
    if (status === 'queued' || status === 'running' || status === 'paused')
      events.append(taskId, { type: 'status', data: { trace_id: taskId, status } });
    return true;
  }

  return {
    events,
    admit: (input, principal) => deps.admission.admit(input, principal),
    start(plan, onEvent) {
      const taskId = deps.newId();
      createTaskRow(taskId, plan, deps);
      events.append(taskId, { type: 'status', data: { trace_id: taskId, status: 'queued' } });
      const controller = new AbortController();
      const gate = new PauseGate();
      active.set(taskId, controller);
      gates.set(taskId, gate);
      const done = slots
        .run(() => run(taskId, plan, controller, gate, onEvent))
        .finally(() => {
          active.delete(taskId);
          gates.delete(taskId);
        });
      const settled = done.catch(() => undefined);
      running.add(settled);
      void settled.then(() => running.delete(settled));
      return { taskId, done };
    },
    abort(taskId) {
      const controller = active.get(taskId);
      if (!controller) return false;
      controller.abort();
      return true;
    },
    isActive: (taskId) => active.has(taskId),
    pause: (taskId) => setPaused(taskId, true),
    resume: (taskId) => setPaused(taskId, false),
    isPaused: (taskId) => gates.get(taskId)?.paused ?? false,
    async close() {
      for (const controller of active.values()) controller.abort();
      await Promise.all(running);
    },
  };
}

/** At most `size` tasks run at once; the rest wait in order. */
function createSlots(size: number) {
  let free = size;
  const waiting: (() => void)[] = [];
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (free > 0) free -= 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else free += 1;
      }
    },
  };
}
