// Tasks dispatched through the shared queue (PostgreSQL replicas): the submitting replica writes
// the task's `queued` row without an owner and its first event, and queues a job; the replica
// that fetches the job claims the row and runs the task (task-dispatch.ts). The submitter's
// `done` resolves from the run itself when it claimed the task, else from the task's stored
// `result` event (task-event-feed.ts). A queued task is aborted by claiming it to end it.

import type { Logger } from 'pino';
import type { HandoffReason } from '../agent/loop/handoff-types.js';
import type { LoopEvent } from '../agent/loop/loop-types.js';
import type { Clock } from '../clock.js';
import type { NotifyChannel } from '../platform/notify/notify-channel.js';
import type { TaskJob, TaskQueue } from '../platform/store/task-queue.js';
import { type StepOutcome, terminalStatuses } from '../platform/store/task-records.js';
import type { TaskRepository } from '../platform/store/task-repository-port.js';
import type { ReplicaCommands, TaskCommand } from './replica-commands-port.js';
import { TaskLeftQueuedError, TaskQueuedError } from './replica-errors.js';
import type { RunListener } from './run-stream.js';
import type { AdoptOptions } from './task-deps.js';
import { startTaskDispatch } from './task-dispatch.js';
import type { TaskEventFeed } from './task-event-feed.js';
import { sweptErrorCodes } from './task-event-follower.js';
import type { TaskEventLog, TaskStreamEvent } from './task-events.js';
import type { CompactResult } from './task-input.js';
import type { TaskPlan } from './task-plan.js';
import type { TaskRun } from './task-run.js';
import type { TaskSlots } from './task-slots.js';

/** What a task service needs to dispatch through the shared queue. */
export interface SharedQueueOptions {
  queue: TaskQueue;
  notify: NotifyChannel;
  /** This replica's instance id (the owner its claims write). */
  self: string;
  /** Forwards an abort to the replica that claimed a task (created after the service). */
  replicas?: () => ReplicaCommands | undefined;
  pollMs?: number;
}

export interface SharedTaskQueueDeps extends SharedQueueOptions {
  repository: TaskRepository;
  feed: TaskEventFeed;
  events: TaskEventLog;
  slots: TaskSlots;
  clock: Clock;
  logger: Logger;
  /** Writes the task's `queued` row without an owner. */
  createRow(taskId: string, plan: TaskPlan): Promise<void>;
  /** Runs a task this replica claimed (tracked by the service as active). */
  adopt(taskId: string, plan: TaskPlan, options: AdoptOptions): TaskRun;
  /** Runs `command` on a task that runs here; false when none does. */
  runLocal(taskId: string, command: TaskCommand): Promise<boolean>;
}

/** A task this replica submitted whose run is elsewhere or not yet claimed. */
interface Waiting {
  plan: TaskPlan;
  listener: RunListener | undefined;
  settle(result: Promise<CompactResult> | CompactResult): void;
  fail(error: Error): void;
  unfollow(): void;
}

export interface SharedTaskQueue {
  /**
   * Writes the task's `queued` row (unowned) and first event, then queues it; resolves once it
   * is queued, with the result to come (from whichever replica runs it).
   */
  submit(
    taskId: string,
    plan: TaskPlan,
    listener?: RunListener,
  ): Promise<{ done: Promise<CompactResult> }>;
  /** The task was submitted here and has not ended yet (wherever it runs). */
  isWaiting(taskId: string): boolean;
  /**
   * Aborts a queued task by claiming it and ending it `aborted` here, or, when another replica
   * claimed it first, through that replica. False when it has ended (or nothing runs it).
   */
  abortQueued(taskId: string, actor?: string): Promise<boolean>;
  /**
   * `command` for a task submitted here that another replica claimed (sent there), or that runs
   * here by now; TaskQueuedError while no replica has claimed it; false once it has ended.
   */
  forward(taskId: string, command: TaskCommand, actor?: string): Promise<boolean>;
  /** Stops fetching; the tasks still waiting stay queued for other replicas. */
  close(): Promise<void>;
}

const queuedEvent = (taskId: string): TaskStreamEvent => ({
  type: 'status',
  data: { trace_id: taskId, status: 'queued' },
});

export function createSharedTaskQueue(deps: SharedTaskQueueDeps): SharedTaskQueue {
  const logger = deps.logger.child({ module: 'shared-task-queue' });
  const waiting = new Map<string, Waiting>();

  /** True when this replica now owns the queued task (a commit seen or not, e.g. on a restart). */
  async function claim(taskId: string): Promise<boolean> {
    if (await deps.repository.claimTask(taskId)) return true;
    const row = await deps.repository.getTask(taskId);
    return row?.status === 'queued' && row.ownerInstance === deps.self;
  }

  /** Runs a claimed task here: with its submitter's listener and `done` when submitted here. */
  function runClaimed(taskId: string, plan: TaskPlan, options: AdoptOptions): TaskRun {
    const entry = waiting.get(taskId);
    waiting.delete(taskId);
    entry?.unfollow();
    if (deps.events.since(taskId, 0).length === 0) deps.events.append(taskId, queuedEvent(taskId));
    const run = deps.adopt(taskId, plan, { ...options, listener: entry?.listener });
    entry?.settle(run.done);
    return run;
  }

  const dispatch = startTaskDispatch({
    queue: deps.queue,
    notify: deps.notify,
    slots: deps.slots,
    logger: deps.logger,
    ...(deps.pollMs ? { pollMs: deps.pollMs } : {}),
    async take(job: TaskJob, slot) {
      const claimed = await claim(job.taskId).catch((error: unknown) => {
        slot();
        throw error;
      });
      if (!claimed) {
        slot();
        return false;
      }
      if (isTaskPlan(job.plan)) {
        runClaimed(job.taskId, job.plan, { slot });
        return true;
      }
      // Never guess at what a task may do: one whose plan cannot be read ends unstarted.
      slot();
      logger.error({ taskId: job.taskId }, 'task job without a readable plan; aborting the task');
      const row = await deps.repository.getTask(job.taskId);
      if (row) runClaimed(job.taskId, planOfRow(row), { aborted: true });
      return true;
    },
  });

  /** The submitter's view of a task another replica runs: its stored events, then its result. */
  function follow(taskId: string, entry: Waiting) {
    const stop = deps.feed.follow(
      taskId,
      1,
      ({ event }) => {
        for (const loopEvent of asLoopEvents(event, deps.clock.now())) entry.listener?.(loopEvent);
        if (event.type !== 'result') return;
        waiting.delete(taskId);
        entry.settle(event.data);
      },
      { interrupted: () => interruptedResult(deps.repository, taskId) },
    );
    entry.unfollow = stop;
  }

  /** `command` for a task a replica has claimed: here, or sent to that replica. */
  async function forward(taskId: string, command: TaskCommand, actor?: string): Promise<boolean> {
    const row = await deps.repository.getTask(taskId);
    if (!row || terminalStatuses.includes(row.status)) return false;
    if (row.ownerInstance === null) throw new TaskQueuedError(taskId, command);
    if (row.ownerInstance === deps.self) return deps.runLocal(taskId, command);
    const replicas = deps.replicas?.();
    return replicas ? replicas.send(row, command, actor ?? row.actor ?? 'system') : false;
  }

  return {
    async submit(taskId, plan, listener) {
      await deps.createRow(taskId, plan);
      const queued = queuedEvent(taskId);
      deps.events.append(taskId, queued);
      await deps.feed.append(taskId, 1, queued, deps.clock.now());
      listener?.({ type: 'status-changed', status: 'queued' });
      const done = new Promise<CompactResult>((resolve, reject) => {
        const entry: Waiting = {
          plan,
          listener,
          settle: resolve,
          fail: reject,
          unfollow: () => {},
        };
        waiting.set(taskId, entry);
        follow(taskId, entry);
      });
      // A caller that never awaits `done` must not turn a close into an unhandled rejection.
      done.catch(() => undefined);
      await dispatch.send(taskId, plan).catch(async (error: unknown) => {
        logger.warn({ err: error, taskId }, 'task not queued; it runs on this replica');
        if (await claim(taskId)) runClaimed(taskId, plan, {});
      });
      return { done };
    },
    isWaiting: (taskId) => waiting.has(taskId),
    async abortQueued(taskId, actor) {
      const row = await deps.repository.getTask(taskId);
      if (!row || terminalStatuses.includes(row.status)) return false;
      if (await claim(taskId)) {
        const plan = waiting.get(taskId)?.plan ?? planOfRow(row);
        runClaimed(taskId, plan, { aborted: true });
        return true;
      }
      return forward(taskId, 'abort', actor);
    },
    forward,
    async close() {
      await dispatch.close();
      for (const [taskId, entry] of waiting) {
        entry.unfollow();
        entry.fail(new TaskLeftQueuedError(taskId));
      }
      waiting.clear();
    },
  };
}

/** The shape of an admitted plan, as a job carries it (JSON). */
function isTaskPlan(value: unknown): value is TaskPlan {
  const plan = value as Partial<TaskPlan> | null;
  return (
    typeof plan?.tenant === 'string' &&
    typeof plan.actor === 'string' &&
    typeof plan.input?.instruction === 'string' &&
    (plan.rules?.kind === 'policy' || plan.rules?.kind === 'allow-all')
  );
}

/**
 * A plan for ending, unstarted, a task queued by another replica (its own plan is in the job):
 * what its row says about it. It never runs: the run is aborted before it takes a slot.
 */
function planOfRow(row: {
  id: string;
  tenant: string;
  actor: string | null;
  instruction: string;
  maxSteps: number;
}): TaskPlan {
  return {
    taskId: row.id,
    tenant: row.tenant,
    actor: row.actor ?? 'system',
    input: { instruction: row.instruction, max_steps: row.maxSteps },
    rules: { kind: 'allow-all', why: 'ended while queued' },
  };
}

/** The result of a task a sweep ended (INTERRUPTED: its runner died; DISPATCH_FAILED), else null. */
async function interruptedResult(
  repository: TaskRepository,
  taskId: string,
): Promise<CompactResult | null> {
  const row = await repository.getTask(taskId);
  if (!row?.errorCode || !sweptErrorCodes.has(row.errorCode)) return null;
  return {
    status: 'error',
    summary: null,
    result_data: null,
    trace_id: taskId,
    step_count: row.stepCount,
    final_screenshot_path: null,
    error: { code: row.errorCode, message: row.errorMessage ?? '' },
  };
}

/** A stored event as the loop events a run's listener sees (steps without their actions). */
function asLoopEvents(event: TaskStreamEvent, at: number): LoopEvent[] {
  switch (event.type) {
    case 'status': {
      const { status, reason, approval } = event.data;
      return [
        {
          type: 'status-changed',
          status,
          ...(reason ? { reason: reason as HandoffReason } : {}),
          ...(approval ? { approval } : {}),
        },
      ];
    }
    case 'step': {
      const { step, outcome, message } = event.data;
      return [
        { type: 'step-started', step, at },
        { type: 'step-ended', step, outcome: outcome as StepOutcome, message, at },
      ];
    }
    case 'stuck':
      return [
        { type: 'task-stuck', step: event.data.step, at, idleMs: 0, summary: event.data.summary },
      ];
    case 'result':
      return [{ type: 'task-ended', result: event.data }];
  }
}
