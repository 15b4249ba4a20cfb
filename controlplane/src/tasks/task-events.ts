import type { LoopEvent } from '../agent/loop/loop-types.js';
import type { LiveTaskStatus, PendingApproval } from './live-status.js';
import type { RunRecorder } from './run-stream.js';
import { describeExecuted } from './step-summary.js';
import type { CompactResult } from './task-input.js';

// What the stream's status events carry, for readers of the stream's types (the pi extension).
export type { LiveTaskStatus, PendingApproval } from './live-status.js';

export interface StepProgress {
  trace_id: string;
  step: number;
  /** The task's step_count when the step ended (steps recorded so far). */
  step_count?: number;
  max_steps: number;
  outcome: string;
  actions: string[];
  thought: string | null;
  message: string | null;
  timings_ms: { capture: number; model: number; execute: number };
}

/** The loop saw no visible progress for a while (task-stuck): what it was doing, for supervisors. */
export interface StuckProgress {
  trace_id: string;
  step: number;
  summary: string;
}

/** What a task's event stream carries (SSE on REST, progress on MCP and pi). */
export type TaskStreamEvent =
  | {
      type: 'status';
      data: {
        trace_id: string;
        status: LiveTaskStatus;
        /** Why a person is needed (`needs_user` only): call_user, stuck, login, otp, captcha. */
        reason?: string;
        /** The pending approval (`awaiting_approval` only). */
        approval?: PendingApproval;
      };
    }
  | { type: 'step'; data: StepProgress }
  | { type: 'stuck'; data: StuckProgress }
  | { type: 'result'; data: CompactResult };

export interface NumberedEvent {
  id: number;
  event: TaskStreamEvent;
}

/**
 * Per-task, numbered event history plus live subscription of this process's runs, kept in memory
 * for the newest `retainTasks` tasks: the local fast path (MCP progress, the dashboard, the
 * screencast relay). SSE reads the stored copy (task-event-feed.ts), which every replica sees.
 */
export class TaskEventLog {
  readonly #retainTasks: number;
  readonly #events = new Map<string, NumberedEvent[]>();
  readonly #listeners = new Map<string, Set<(event: NumberedEvent) => void>>();

  constructor(retainTasks = 200) {
    this.#retainTasks = retainTasks;
  }

  append(taskId: string, event: TaskStreamEvent): void {
    let list = this.#events.get(taskId);
    if (!list) {
      list = [];
      this.#events.set(taskId, list);
      this.#evict();
    }
    const numbered = { id: list.length + 1, event };
    list.push(numbered);
    for (const listener of this.#listeners.get(taskId) ?? []) listener(numbered);
  }

  since(taskId: string, lastId: number): NumberedEvent[] {
    return (this.#events.get(taskId) ?? []).filter((entry) => entry.id > lastId);
  }

  /** Live events of one task; returns the unsubscribe function. Listeners must not throw. */
  subscribe(taskId: string, listener: (event: NumberedEvent) => void): () => void {
    let set = this.#listeners.get(taskId);
    if (!set) {
      set = new Set();
      this.#listeners.set(taskId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.#listeners.delete(taskId);
    };
  }

  #evict(): void {
    while (this.#events.size > this.#retainTasks) {
      const oldest = this.#events.keys().next().value;
      if (oldest === undefined) return;
      this.#events.delete(oldest);
    }
  }
}

/** Where a run's numbered events go (run-recorders.ts): a promise while one is being stored. */
export type TaskEventSink = (event: TaskStreamEvent) => void | Promise<void>;

/**
 * The recorder (run-stream.ts) that turns a run's events into the stream's shape every surface
 * reads: each status change as `status`, each ended step as one `step` (its number is the
 * step_count: every started step ends exactly once, an aborted one `aborted`), each stuck report
 * as `stuck`, the ending as `result`. Nothing else of the run reaches `sink`.
 */
export function recordToEventLog(
  taskId: string,
  maxSteps: number,
  sink: TaskEventSink,
): RunRecorder {
  const track = createStepTracker(taskId, maxSteps);
  return (event) => {
    const step = track(event);
    if (step) return sink({ type: 'step', data: { ...step, step_count: step.step } });
    if (event.type === 'status-changed') {
      const { status, reason, approval } = event;
      const data = { trace_id: taskId, status, ...(reason ? { reason } : {}) };
      return sink({ type: 'status', data: approval ? { ...data, approval } : data });
    }
    if (event.type === 'task-stuck')
      return sink({
        type: 'stuck',
        data: { trace_id: taskId, step: event.step, summary: event.summary },
      });
    if (event.type === 'task-ended') return sink({ type: 'result', data: event.result });
    return undefined;
  };
}

/** Folds loop events into one `step` progress event per finished step. */
function createStepTracker(taskId: string, maxSteps: number) {
  let current: StepProgress | null = null;
  return (event: LoopEvent): StepProgress | null => {
    switch (event.type) {
      case 'step-started':
        current = {
          trace_id: taskId,
          step: event.step,
          max_steps: maxSteps,
          outcome: 'pending',
          actions: [],
          thought: null,
          message: null,
          timings_ms: { capture: 0, model: 0, execute: 0 },
        };
        return null;
      case 'screenshot-taken':
        if (current) current.timings_ms.capture = event.captureMs;
        return null;
      case 'prediction-received':
        if (current) {
          current.timings_ms.model = event.modelMs;
          current.thought = event.thought;
        }
        return null;
      case 'actions-executed':
        if (current) {
          current.timings_ms.execute = event.executeMs;
          current.actions = event.executed.map(describeExecuted);
        }
        return null;
      case 'step-ended': {
        if (!current) return null;
        const done = { ...current, outcome: event.outcome, message: event.message };
        current = null;
        return done;
      }
      default:
        return null;
    }
  };
}
