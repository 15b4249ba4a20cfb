// What browser_run_task shows: one-line progress for partial updates, the compact result as JSON
// text for the model (large fields cut to a budget), and which final statuses count as errors.
import type { LiveTaskStatus, PendingApproval, StepProgress } from '../src/tasks/task-events.js';
import type { CompactResult, TaskResultStatus } from '../src/tasks/task-input.js';

/** `details` of a partial update: the task's state and its latest finished step. */
export interface TaskProgress {
  trace_id: string;
  status: LiveTaskStatus;
  /** Why a person is needed (status `needs_user`). */
  reason?: string;
  /** The approval the task waits for (status `awaiting_approval`). */
  approval?: PendingApproval;
  /** The latest finished step, or null before the first one. */
  step: StepProgress | null;
}

/** `details` of browser_run_task: progress while running, the compact result at the end. */
export type BrowserRunTaskDetails = TaskProgress | CompactResult;

/**
 * Final statuses reported with `isError: true`: the task failed (`error`), was stopped from
 * outside the tool call or by cancelling it (`aborted`), or ran out of steps
 * without finishing (`max_steps`). `finished` and `call_user` (the browser agent hands over to a
 * human, e.g. for a login or CAPTCHA, with the reason in `summary`) are successful calls.
 */
export const errorStatuses: ReadonlySet<TaskResultStatus> = new Set([
  'error',
  'aborted',
  'max_steps',
]);

/** True for the details of a final result whose status is in {@link errorStatuses}. */
export function isFailedTaskResult(details: unknown): boolean {
  if (typeof details !== 'object' || details === null) return false;
  const { status, trace_id: traceId } = details as { status?: unknown; trace_id?: unknown };
  return typeof traceId === 'string' && errorStatuses.has(status as TaskResultStatus);
}

/** A progress line: `step 3/30: click (640, 400)`, or `task <id> queued` before the first step. */
export function formatProgress(progress: TaskProgress): string {
  const { step } = progress;
  if (progress.status === 'needs_user')
    return `browser task ${progress.trace_id} needs a person (${progress.reason ?? 'takeover'}): a supervisor was asked to take over`;
  if (progress.status === 'awaiting_approval' && progress.approval) {
    const { approval } = progress;
    return `browser task ${progress.trace_id} awaiting approval ${approval.id} (${approval.kind.replaceAll('_', ' ')}): ${clip(approval.reason, 200)}`;
  }
  if (!step) return `browser task ${progress.trace_id} ${progress.status}`;
  const what = step.actions.length > 0 ? step.actions.join(', ') : step.outcome;
  return `step ${step.step}/${step.max_steps}: ${clip(what, 200)}`;
}

/** Size limits of the result text, in characters of the JSON text (quotes and escapes count). */
export interface ResultTextLimits {
  /** `result_data` serialised as JSON. */
  resultData: number;
  /** `summary` when `result_data` is null (the summary is the answer). */
  summary: number;
  /** `summary` when `result_data` is set (the summary is the JSON it was parsed from). */
  summaryWithData: number;
}

export const defaultResultTextLimits: ResultTextLimits = {
  resultData: 20_000,
  summary: 8_000,
  summaryWithData: 1_000,
};

/**
 * The compact result as one line of JSON for the model. Oversized `summary` / `result_data` are
 * cut (result_data becomes a string holding the start of its JSON) and a `truncated` note says
 * what was cut and where the full result is (`GET /v1/tasks/:id`); `details` keeps it whole.
 */
export function formatResultText(
  result: CompactResult,
  limits: ResultTextLimits = defaultResultTextLimits,
): string {
  const view: Record<string, unknown> = { ...result };
  const cut: string[] = [];
  const data = JSON.stringify(result.result_data ?? null);
  if (data.length > limits.resultData) {
    view.result_data = clipEncoded(data, limits.resultData);
    cut.push(`result_data (${data.length} characters of JSON)`);
  }
  const summaryLimit = result.result_data == null ? limits.summary : limits.summaryWithData;
  if (result.summary !== null && result.summary.length > summaryLimit) {
    view.summary = clipEncoded(result.summary, summaryLimit);
    cut.push(`summary (${result.summary.length} characters)`);
  }
  if (cut.length > 0) {
    view.truncated = `${cut.join(' and ')} cut to fit; the full result is at GET /v1/tasks/${result.trace_id} on the controlplane`;
  }
  return JSON.stringify(view);
}

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…`;
}

/** Cuts `text` so that its JSON string encoding stays within `limit` characters. */
function clipEncoded(text: string, limit: number): string {
  let kept = Math.min(text.length, limit);
  for (;;) {
    const candidate = clip(text, kept);
    const overflow = JSON.stringify(candidate).length - limit;
    if (overflow <= 0 || kept === 0) return candidate;
    kept = Math.max(0, kept - overflow);
  }
}
