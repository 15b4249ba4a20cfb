import type { LoopEvent } from '../agent/loop-types.js';
import { discardAuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/scopes.js';
import {
  type BrowserLease,
  type BrowserProvider,
  createSingleBrowserProvider,
} from '../browsers/browser-provider.js';
import { createKeptBrowsers, type KeptBrowser } from '../browsers/kept-browsers.js';
import { leaseBrowser } from '../browsers/lease-browser.js';
import type { BrowserOperator } from '../operator/browser-operator.js';
import type { TaskAdmission } from '../policy/task-admission.js';
import { createTaskGuards, type TaskGuards } from '../policy/task-guards.js';
import type { LeasePreparer } from '../sessions/session-injector.js';
import { handoffForTask } from '../takeover/handoff-for-task.js';
import type { TakeoverDeps } from '../takeover/task-handoff.js';
import { createJailPageProbe } from '../wait/jail-page-probe.js';
import { createDesktopSurfaceOperator } from './desktop-surface-operator.js';
import { createDesktopTaskOperator } from './desktop-task-operator.js';
import { followUpPlan, inheritKeptDomains, KeptSessionNotFoundError } from './follow-up-plan.js';
import { PauseGate } from './pause-gate.js';
import { createTaskRow, type RunBrowserTaskDeps, runBrowserTask } from './run-browser-task.js';
import { createStepTracker, TaskEventLog } from './task-events.js';
import type { BrowserRunTaskInput, CompactResult } from './task-input.js';
import { defaultKeepRules, type TaskPlan } from './task-plan.js';

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
   * and actor) and runs it when a browser is free, gated by what its plan says. A follow-up
   * (`session_id`) takes its kept browser at once, or throws SESSION_NOT_FOUND (404).
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
   * gate without an approver (needs_approval is refused) for policy plans, `unpolicedGate` else.
   */
  guards?: TaskGuards;
  /**
   * Drives a lease's X display for `surface: 'desktop'` tasks. Default: the desktop surface of the
   * clone's own jail-service (xwd + xdotool run inside the clone), over HTTP.
   */
  desktopOperator?: (lease: BrowserLease) => BrowserOperator;
  /** Readies each fresh lease before the first step (saved-session injection); must not throw. */
  prepareLease?: LeasePreparer;
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
  const kept = createKeptBrowsers({
    audit: deps.audit ?? discardAuditLog,
    logger: deps.logger,
    concurrency: provider.concurrency,
  });
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
    held: KeptBrowser | undefined,
    onEvent?: (event: LoopEvent) => void,
  ) {
    const { input } = plan;
    const releaseSlot = held?.releaseSlot ?? (await slots.acquire());
    const track = createStepTracker(taskId, input.max_steps ?? deps.loop.maxSteps);
    const status = pauses.paused ? 'paused' : 'running';
    events.append(taskId, { type: 'status', data: { trace_id: taskId, status } });
    // The lease goes to this run directly; the registry only indexes it for readers.
    const leased = held?.lease ?? (await leaseBrowser(provider, taskId, input, controller.signal));
    const lease = (await deps.prepareLease?.(plan, taskId, leased, controller.signal)) ?? leased;
    let outcome: CompactResult | undefined;
    try {
      const guard = guards(plan, { taskId, browser: lease.operator, events });
      const recording = input.record ? startRecording(taskId) : undefined;
      outcome = await runBrowserTask(
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
      });
    } finally {
      const session =
        outcome && input.keep_session ? keepAfter(taskId, plan, lease, outcome, releaseSlot) : null;
      if (!session || !('sessionId' in session)) {
        await lease.release();
        releaseSlot();
      }
      if (outcome && session) {
        outcome =
          'sessionId' in session
            ? { ...outcome, session_id: session.sessionId }
            : { ...outcome, session_id: null, session_refused: session.refused };
      }
    }
    events.append(taskId, { type: 'result', data: outcome });
    return outcome;
  }

  /** Keeps the browser of a task that asked to (`keep_session`) when it is still usable. */
  function keepAfter(
    taskId: string,
    plan: TaskPlan,
    lease: BrowserLease,
    result: CompactResult,
    releaseSlot: () => void,
  ): { sessionId: string } | { refused: string } {
    const unusable =
      lease.id === 'none'
        ? 'the task had no browser'
        : result.status === 'aborted'
          ? 'the task was aborted'
          : result.error?.code.startsWith('OPERATOR_')
            ? `its browser failed (${result.error.code})`
            : null;
    if (unusable) return { refused: unusable };
    const rules = plan.keep ?? defaultKeepRules;
    return kept.keep(lease, releaseSlot, {
      tenant: plan.tenant,
      taskId,
      domains: plan.input.domains ?? ['*'],
      idleTtlMs: rules.idleTtlMs,
      maxSessions: rules.maxSessions,
    });
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
    admit(input, principal) {
      const admitted = deps.admission.admit(
        inheritKeptDomains(input, principal.tenant, kept),
        principal,
        deps.newId(),
      );
      return followUpPlan(admitted, kept);
    },
    start(plan, onEvent) {
      const taskId =
        plan.taskId && !deps.repository.getTask(plan.taskId) ? plan.taskId : deps.newId();
      const sessionId = plan.input.session_id;
      const held = sessionId ? kept.take(sessionId, plan.tenant, taskId) : undefined;
      if (sessionId && !held) throw new KeptSessionNotFoundError(sessionId);
      createTaskRow(taskId, plan, deps);
      events.append(taskId, { type: 'status', data: { trace_id: taskId, status: 'queued' } });
      const controller = new AbortController();
      const gate = new PauseGate();
      active.set(taskId, controller);
      gates.set(taskId, gate);
      const done = run(taskId, plan, controller, gate, held, onEvent).finally(() => {
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
      await kept.close();
    },
  };
}

/** At most `size` tasks hold a slot at once; the rest wait in order. */
function createSlots(size: number) {
  let free = size;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free += 1;
  };
  return {
    /** Resolves with this slot's release function (call it exactly once). */
    async acquire(): Promise<() => void> {
      if (free > 0) free -= 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release();
      };
    },
  };
}
