// The task-trace store port and its value types (the adapter is task-repository.ts).
import type { TaskUsage } from '../../tasks/task-usage.js';
import type {
  ActionRecord,
  LogRecord,
  NewAction,
  NewLog,
  StepRecord,
  TaskRecord,
  TaskStatus,
  TerminalStatus,
} from './task-records.js';

export interface NewTask {
  id: string;
  instruction: string;
  startUrl: string | null;
  maxSteps: number;
  modelName: string;
  coordinateMode: string;
  createdAt: number;
  /** The tenant that owns the task (default `default`). */
  tenant?: string;
  /** Who started it, `tenant:<t>/<subject>` (default null). */
  actor?: string | null;
  /**
   * Waits in the shared task queue (PostgreSQL replicas): created without an owner, so that no
   * replica's end ends it; the replica that runs it takes it with `claimTask`.
   */
  unowned?: boolean;
}

export interface TaskEnd {
  status: TaskStatus;
  summary: string | null;
  resultData: unknown;
  errorCode: string | null;
  errorMessage: string | null;
  stepCount: number;
  finalScreenshotPath: string | null;
  endedAt: number;
  /** The verification of a finished task; absent or null for the others. */
  verification?: unknown;
}

export type StepPatch = Partial<Omit<StepRecord, 'id' | 'taskId' | 'index' | 'startedAt'>>;

export interface TaskListQuery {
  limit: number;
  offset: number;
  status?: TaskStatus | undefined;
  /** Case-insensitive substring of the instruction, or a trace id prefix. */
  search?: string | undefined;
  /** Only this tenant's tasks (filtered in SQL); undefined = every tenant (admin). */
  tenant?: string | undefined;
}

/**
 * The store port for task traces. Every method is atomic; each returns a Promise so that an
 * asynchronous store (PostgreSQL) can implement it.
 */
export interface TaskRepository {
  createTask(task: NewTask): Promise<void>;
  /**
   * Makes this repository's owner the owner of an unowned `queued` task (created `unowned`): true
   * for exactly one caller however many claim it at once; false once it is owned or ended.
   */
  claimTask(id: string): Promise<boolean>;
  markStarted(id: string, at: number): Promise<void>;
  endTask(id: string, end: TaskEnd): Promise<void>;
  /** The task, or null when unknown or (with `tenant`) owned by another tenant. */
  getTask(id: string, tenant?: string): Promise<TaskRecord | null>;
  listTasks(query: TaskListQuery): Promise<{ tasks: TaskRecord[]; total: number }>;
  /** How many tasks have each status (statuses with none are absent). */
  countTasksByStatus(): Promise<Partial<Record<TaskStatus, number>>>;
  /**
   * Ends with `error`/INTERRUPTED every unended (queued, running, paused, waiting) task whose owner instance is
   * not in `liveOwners` (rows without an owner included, except `queued` ones: they wait in the
   * shared queue for any replica), its step_count set to the steps it recorded. Returns the
   * tasks it ended.
   */
  failInterrupted(at: number, liveOwners?: readonly string[]): Promise<InterruptedTask[]>;
  /** The `queued` tasks nobody has claimed (shared queue) that were created before `before`. */
  unclaimedQueued(before: number): Promise<string[]>;
  /**
   * Ends with `error` `end.code` those of `ids` still `queued` and unclaimed: the status change is
   * the claim (of replicas ending them at once each row is ended once). Returns the tasks it ended.
   */
  failUnclaimed(
    ids: readonly string[],
    end: { at: number; code: string; message: string },
  ): Promise<InterruptedTask[]>;
  /**
   * Sets the live status of an unended task (queued, running, paused, needs_user,
   * awaiting_approval), as its run (tasks/task-run.ts) decided it; an ended task is left alone.
   */
  setLiveStatus(id: string, status: Exclude<TaskStatus, TerminalStatus>): Promise<void>;
  /** Records a step and sets the task's step_count to the steps it has recorded so far. */
  insertStep(taskId: string, index: number, startedAt: number): Promise<number>;
  updateStep(stepId: number, patch: StepPatch): Promise<void>;
  /** Sets the task's model usage totals (tasks/task-usage.ts), as each call adds to them. */
  setUsage(taskId: string, usage: TaskUsage): Promise<void>;
  listSteps(taskId: string): Promise<StepRecord[]>;
  getStep(taskId: string, index: number): Promise<StepRecord | null>;
  insertActions(rows: NewAction[]): Promise<void>;
  listActions(stepId: number): Promise<ActionRecord[]>;
  appendLog(row: NewLog): Promise<void>;
  listLogs(taskId: string, stepId?: number): Promise<LogRecord[]>;
}

/** A task `failInterrupted` ended. */
export interface InterruptedTask {
  id: string;
  actor: string | null;
  stepCount: number;
}
