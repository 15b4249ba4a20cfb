/** Plain records the store returns; JSON columns are decoded. */
import type { CallUsage } from '../../agent/model/call-usage.js';
import type { TaskUsage } from '../../tasks/task-usage.js';

/**
 * Every task status; `paused` = the loop waits before its next step until resumed; `needs_user` =
 * a person has (or is asked to take) control of the browser and the model is not called;
 * `awaiting_approval` = the next action waits for a supervisor's answer to an approval request.
 */
export const taskStatusValues = [
  'queued',
  'running',
  'paused',
  'needs_user',
  'awaiting_approval',
  'finished',
  'max_steps',
  'error',
  'aborted',
  'call_user',
] as const;

export type TaskStatus = (typeof taskStatusValues)[number];

const terminal = ['finished', 'max_steps', 'error', 'aborted', 'call_user'] as const;

/** The statuses of an ended task. */
export type TerminalStatus = (typeof terminal)[number];
export const terminalStatuses: readonly TaskStatus[] = terminal;

export interface TaskRecord {
  id: string;
  instruction: string;
  startUrl: string | null;
  status: TaskStatus;
  summary: string | null;
  resultData: unknown;
  errorCode: string | null;
  errorMessage: string | null;
  stepCount: number;
  maxSteps: number;
  modelName: string;
  coordinateMode: string;
  finalScreenshotPath: string | null;
  createdAt: number;
  startedAt: number | null;
  endedAt: number | null;
  /** The tenant that owns the task. */
  tenant: string;
  /** Who started it (`tenant:<t>/<subject>`), null when unknown. */
  actor: string | null;
  /**
   * The controlplane instance (`instances.id`) that runs it: a command for an unended task goes to
   * that replica (tasks/replica-commands.ts). Null for rows from older versions.
   */
  ownerInstance: string | null;
  /** Model usage totals so far (updated per call), null before the first call. */
  usage: TaskUsage | null;
  /** The verification of a finished task (tasks/task-verification.ts), parsed JSON; else null. */
  verification: unknown;
}

export type StepOutcome =
  | 'pending'
  | 'acted'
  | 'finished'
  | 'call_user'
  | 'error_env'
  | 'parse_error'
  | 'plan_error'
  | 'action_error'
  | 'refused'
  | 'result_invalid'
  | 'needs_user'
  /** The task was aborted (or timed out) while this step ran. */
  | 'aborted'
  /** The task ended in an error while this step ran (the model or the browser failed). */
  | 'failed';

export interface StepRecord {
  id: number;
  taskId: string;
  index: number;
  thought: string | null;
  reflection: string | null;
  rawPrediction: string | null;
  outcome: StepOutcome;
  outcomeMessage: string | null;
  screenshotPath: string | null;
  imageWidth: number | null;
  imageHeight: number | null;
  devicePixelRatio: number | null;
  captureMs: number | null;
  modelMs: number | null;
  executeMs: number | null;
  modelRequestBytes: number | null;
  /** The step's model call: tokens, images, latency split; null when it got no reply. */
  modelUsage: CallUsage | null;
  /** The step's network evidence (`NetworkEvidence`), parsed JSON; null when none was reported. */
  network: unknown;
  startedAt: number;
  endedAt: number | null;
}

export interface ActionRecord {
  id: number;
  stepId: number;
  taskId: string;
  index: number;
  type: string;
  modelAction: unknown;
  action: unknown;
  screenX: number | null;
  screenY: number | null;
  cssX: number | null;
  cssY: number | null;
  status: 'ok' | 'error' | 'skipped';
  errorCode: string | null;
  errorMessage: string | null;
  durationMs: number | null;
  navigated: boolean;
}

export interface LogRecord {
  id: number;
  taskId: string;
  stepId: number | null;
  at: number;
  level: 'debug' | 'info' | 'warn' | 'error';
  event: string;
  message: string;
  data: unknown;
}

export type NewAction = Omit<ActionRecord, 'id'>;
export type NewLog = Omit<LogRecord, 'id'>;
