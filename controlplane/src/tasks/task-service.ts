import type { HandoffReason } from '../agent/loop/handoff-types.js';
import type { BrowserOperator } from '../browser/operator/browser-operator.js';
import {
  type BrowserLease,
  type BrowserProvider,
  createSingleBrowserProvider,
} from '../browser/provider/browser-provider.js';
import { createKeptBrowsers } from '../browser/provider/kept-browsers.js';
import type { LeasePreparer } from '../browser/sessions/session-injector.js';
import type { TakeoverDeps } from '../browser/takeover/task-handoff.js';
import { discardAuditLog } from '../governance/audit/audit-log.js';
import type { Principal } from '../governance/auth/scopes.js';
import type { TaskAdmission } from '../governance/policy/task-admission.js';
import { createTaskGuards, type TaskGuards } from '../governance/policy/task-guards.js';
import { createDesktopSurfaceOperator } from './desktop-surface-operator.js';
import { followUpPlan, inheritKeptDomains, KeptSessionNotFoundError } from './follow-up-plan.js';
import { type LocateKeptSession, notHeldHere } from './kept-session-place.js';
import type { PendingApproval } from './live-status.js';
import type { RunListener } from './run-stream.js';
import { createSharedTaskQueue, type SharedQueueOptions } from './shared-task-queue.js';
import type { TaskDeps } from './task-deps.js';
import type { TaskEventFeed } from './task-event-feed.js';
import { TaskEventLog } from './task-events.js';
import type { BrowserRunTaskInput, CompactResult } from './task-input.js';
import type { TaskPlan } from './task-plan.js';
import { TaskRun } from './task-run.js';
import { createSlots } from './task-slots.js';
import { createTaskRow } from './task-start.js';

export interface StartedTask {
  taskId: string;
  done: Promise<CompactResult>;
}

export interface TaskService {
  /**
   * Admission, before anything starts: the plan `input` runs with for `principal` (its tenant's
   * policy, or none for a service built without one). Throws AppError POLICY_DENIED /
   * INVALID_INPUT (400) when it may not run (rejects); the decision is audited.
   */
  admit(input: BrowserRunTaskInput, principal: Principal): Promise<TaskPlan>;
  /**
   * Queues an admitted task (its row exists once this resolves, status `queued`, under the plan's
   * tenant and actor) and runs it when a browser is free, gated by what its plan says. A follow-up
   * (`session_id`) takes its kept browser at once, or rejects SESSION_NOT_FOUND (404). `onEvent`
   * subscribes to the run's one event stream from its first event (`queued`) to its last
   * (`task-ended`); it must not throw.
   */
  start(plan: TaskPlan, onEvent?: RunListener): Promise<StartedTask>;
  /**
   * Aborts an unended task at once, whatever its state: a queued one ends `aborted` without
   * starting and leaves the queue. False when it is not active.
   */
  abort(taskId: string): boolean;
  /**
   * Aborts a task that waits in the shared queue (PostgreSQL replicas), whichever replica
   * submitted it: it ends `aborted` without starting, or, claimed meanwhile, is aborted through
   * the replica that runs it (`actor` audited). False when it has ended. Absent without the queue.
   */
  abortQueued?(taskId: string, actor: string): Promise<boolean>;
  /** It runs here, or was submitted here and waits in the shared queue or runs elsewhere. */
  isActive(taskId: string): boolean;
  /**
   * Pauses a queued or running task before its next step (resolves once its row says `paused`);
   * false when it is not active.
   */
  pause?(taskId: string): Promise<boolean>;
  /** Lets a paused task continue (resolves once its row says so); false when it is not active. */
  resume?(taskId: string): Promise<boolean>;
  isPaused?(taskId: string): boolean;
  /** The approval an active task waits for (status `awaiting_approval`), else null. */
  pendingApproval?(taskId: string): PendingApproval | null;
  /** Why an active task needs a person (status `needs_user`), else null. */
  needsUser?(taskId: string): HandoffReason | null;
  /**
   * The numbered status/step/stuck/result events of recent tasks (SSE, the dashboard, the
   * screencast relay): each run's stream written in the shape every surface reads.
   */
  readonly events: TaskEventLog;
  /** The same events as stored, of every task on the database, whichever process runs it (SSE). */
  readonly feed: TaskEventFeed;
  /** Aborts everything and waits for the running task to be recorded. */
  close(): Promise<void>;
}

export interface TaskServiceDeps extends TaskDeps {
  /** The one browser tasks queue for when the service is built without a provider. */
  operator: BrowserOperator;
  newId: () => string;
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
  /**
   * Dispatch through the shared queue of the PostgreSQL replicas (shared-task-queue.ts): tasks
   * that may move go to whichever replica has a free browser slot; absent, every task runs here.
   */
  sharedQueue?: SharedQueueOptions | undefined;
  /**
   * Where a kept browser not held here is (PostgreSQL replicas): a follow-up of one held by
   * another replica, or by one that is gone, is refused with that said, not a bare not-found.
   */
  locateKeptSession?: LocateKeptSession | undefined;
}

/**
 * Runs tasks on browsers from `provider`: by default the one browser in `deps.operator`, one task
 * at a time; with hostd, a fresh clone per task, `provider.concurrency` at once. Each task is one
 * TaskRun (task-run.ts), which owns its row, queue place, lease, guard, loop and ending; this
 * service admits plans, hands out kept sessions and finds the active runs by id. `close()`
 * aborts every run and waits until they are recorded.
 */
export function createTaskService(
  deps: TaskServiceDeps,
  events = new TaskEventLog(),
  provider: BrowserProvider = createSingleBrowserProvider(deps.operator),
): TaskService {
  const active = new Map<string, TaskRun>();
  const running = new Set<Promise<unknown>>();
  const kept = createKeptBrowsers({
    audit: deps.audit ?? discardAuditLog,
    logger: deps.logger,
    concurrency: provider.concurrency,
  });
  const runDeps = {
    ...deps,
    events,
    provider,
    slots: createSlots(provider.concurrency),
    kept,
    guards: deps.guards ?? createTaskGuards({ audit: deps.audit, logger: deps.logger }),
    desktopOperator:
      deps.desktopOperator ?? ((lease: BrowserLease) => createDesktopSurfaceOperator(lease)),
  };
  const track = (taskId: string, run: TaskRun) => {
    active.set(taskId, run);
    const done = run.done.finally(() => active.delete(taskId));
    const settled = done.catch(() => undefined);
    running.add(settled);
    void settled.then(() => running.delete(settled));
    return done;
  };
  const shared =
    deps.sharedQueue &&
    createSharedTaskQueue({
      ...deps.sharedQueue,
      ...runDeps,
      createRow: (taskId, plan) => createTaskRow(taskId, plan, deps, true),
      adopt(taskId, plan, options) {
        const run = TaskRun.adopt(taskId, plan, runDeps, options);
        void track(taskId, run);
        return run;
      },
      runLocal: async (taskId, command) =>
        command === 'abort' ? abortRun(taskId) : pauseRun(taskId, command === 'pause'),
    });

  return {
    events,
    feed: deps.feed,
    async admit(input, principal) {
      const admitted = await deps.admission.admit(
        inheritKeptDomains(input, principal.tenant, kept),
        principal,
        deps.newId(),
      );
      try {
        return followUpPlan(admitted, kept);
      } catch (error) {
        const sessionId = input.session_id;
        if (!(error instanceof KeptSessionNotFoundError) || !sessionId || !deps.locateKeptSession)
          throw error;
        const place = await deps.locateKeptSession(sessionId, principal.tenant);
        throw notHeldHere(sessionId, place) ?? error;
      }
    },
    async start(plan, onEvent) {
      const taskId =
        plan.taskId && !(await deps.repository.getTask(plan.taskId)) ? plan.taskId : deps.newId();
      if (shared && mayMove(plan))
        return { taskId, ...(await shared.submit(taskId, plan, onEvent)) };
      const sessionId = plan.input.session_id;
      const held = sessionId ? kept.take(sessionId, plan.tenant, taskId) : undefined;
      if (sessionId && !held) throw new KeptSessionNotFoundError(sessionId);
      const run = await TaskRun.start(taskId, plan, runDeps, { held, listener: onEvent });
      return { taskId, done: track(taskId, run) };
    },
    abort(taskId) {
      if (abortRun(taskId)) return true;
      if (!shared?.isWaiting(taskId)) return false;
      void shared.abortQueued(taskId).catch((error: unknown) => {
        deps.logger.error({ err: error, taskId }, 'aborting a queued task failed');
      });
      return true;
    },
    ...(shared ? { abortQueued: shared.abortQueued } : {}),
    isActive: (taskId) => active.has(taskId) || (shared?.isWaiting(taskId) ?? false),
    pause: (taskId) => setPaused(taskId, true),
    resume: (taskId) => setPaused(taskId, false),
    isPaused: (taskId) => active.get(taskId)?.paused ?? false,
    pendingApproval: (taskId) => active.get(taskId)?.pendingApproval ?? null,
    needsUser: (taskId) => active.get(taskId)?.needsUser ?? null,
    async close() {
      // First: no more claims; tasks still waiting in the shared queue stay there for others.
      await shared?.close();
      for (const run of active.values()) run.abort();
      await Promise.all(running);
      await kept.close();
    },
  };

  function abortRun(taskId: string): boolean {
    const run = active.get(taskId);
    run?.abort();
    return run !== undefined;
  }

  /** Here, or (submitted here, run elsewhere) on the replica that claimed it. */
  async function setPaused(taskId: string, paused: boolean): Promise<boolean> {
    if (!active.has(taskId) && shared?.isWaiting(taskId))
      return shared.forward(taskId, paused ? 'pause' : 'resume');
    return pauseRun(taskId, paused);
  }

  async function pauseRun(taskId: string, paused: boolean): Promise<boolean> {
    const run = active.get(taskId);
    await run?.setPaused(paused);
    return run !== undefined;
  }
}

/**
 * Whether a task may run on another replica than the one that admitted it: not a follow-up of a
 * kept browser (`session_id`) or a task that keeps its browser (the follow-up comes here), not one
 * with files to upload (host paths of this machine).
 */
export function mayMove(plan: TaskPlan): boolean {
  const { input } = plan;
  return !input.session_id && !input.keep_session && (plan.uploads?.length ?? 0) === 0;
}
