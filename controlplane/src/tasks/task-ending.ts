// How a task run ends, in one place: the mapping of anything thrown (or an abort, or the task's
// timeout) to an ending, and the ending written to the row as the compact result.
import type { LoopErrorCode, LoopResult } from '../agent/loop/loop-types.js';
import type { Clock } from '../clock.js';
import { AppError, isAbortError, TaskTimeoutError } from '../errors.js';
import type { TaskRepository } from '../platform/store/task-repository.js';
import type { CompactResult } from './task-input.js';
import type { TraceRecorder } from './trace-recorder.js';
import type { TaskVerification } from './verification-schema.js';

/** Typed failures of the model, the browser and the run's own ports that end a task as they are. */
const passthroughCodes = new Set<string>([
  'MODEL_UNAVAILABLE',
  'MODEL_TIMEOUT',
  'MODEL_REJECTED',
  'MODEL_EMPTY_REPLY',
  'MODEL_BAD_RESPONSE',
  'OPERATOR_UNAVAILABLE',
  'OPERATOR_BAD_RESPONSE',
  // The fleet lost the jail host of the task's clone (fleet/fleet-browser-provider.ts).
  'HOST_LOST',
  // A saved session refused or not injected before the first step (sessions/session-injector.ts).
  'APPROVAL_DENIED',
  'SESSION_INJECT_FAILED',
  // A secret the model was approved to type cannot be read (credentials/task-credentials.ts).
  'SECRET_UNAVAILABLE',
  // A security decision's audit row could not be committed: fail closed (errors.ts AuditWriteError).
  'AUDIT_WRITE_FAILED',
]);

/**
 * The one mapping of a run that threw to its ending, used by the loop and by the run's start
 * (start_url, logged_in_check):
 *
 * | what happened                                   | status    | error code               |
 * | ----------------------------------------------- | --------- | ------------------------ |
 * | the task's timeout fired (`timeoutSignal`)      | `error`   | TASK_TIMEOUT             |
 * | the task was aborted (or anything after that)   | `aborted` | —                        |
 * | a typed model/browser/session/audit failure     | `error`   | its code (MODEL_TIMEOUT…) |
 * | anything else                                   | `error`   | INTERNAL                 |
 */
export function endingOf(error: unknown, stepCount: number, signal?: AbortSignal): LoopResult {
  const why: unknown = signal?.aborted ? signal.reason : error;
  if (why instanceof TaskTimeoutError) return failed('TASK_TIMEOUT', why.message, stepCount);
  if (isAbortError(error) || signal?.aborted)
    return { status: 'aborted', summary: null, error: null, stepCount };
  return failed(errorCode(error), (error as Error).message ?? String(error), stepCount);
}

/** The typed code of a failure; anything unexpected is INTERNAL. */
export function errorCode(error: unknown): LoopErrorCode {
  if (error instanceof AppError && passthroughCodes.has(error.code))
    return error.code as LoopErrorCode;
  return 'INTERNAL';
}

/** An ending of status `error` with its code. */
export function failed(code: LoopErrorCode, message: string, stepCount: number): LoopResult {
  return { status: 'error', summary: null, error: { code, message }, stepCount };
}

/**
 * The task's signal: its abort, and — with `timeout_s` — a timer that aborts it with a
 * `TaskTimeoutError` (so `endingOf` tells the two apart). `clear()` stops the timer: the run
 * calls it when the task has ended.
 */
export function taskSignal(abort: AbortSignal, timeoutSeconds: number | undefined) {
  if (!timeoutSeconds) return { signal: abort, clear: () => undefined };
  const timeout = new AbortController();
  const timer = setTimeout(
    () => timeout.abort(new TaskTimeoutError(timeoutSeconds)),
    timeoutSeconds * 1000,
  );
  return { signal: AbortSignal.any([abort, timeout.signal]), clear: () => clearTimeout(timer) };
}

/**
 * Writes the ending to the row (status, summary, structured result, error, step_count, final
 * screenshot, ended_at) and returns it as the compact result, with the trace's usage totals
 * when the task called a model.
 */
export async function recordEnding(
  taskId: string,
  result: LoopResult,
  trace: Pick<TraceRecorder, 'lastScreenshotPath' | 'usage'>,
  deps: { repository: TaskRepository; clock: Clock },
  verification?: TaskVerification,
): Promise<CompactResult> {
  const finalScreenshotPath = trace.lastScreenshotPath();
  const usage = trace.usage();
  const resultData = 'resultData' in result ? result.resultData : parseResultData(result.summary);
  await deps.repository.endTask(taskId, {
    status: result.status,
    summary: result.summary,
    resultData,
    errorCode: result.error?.code ?? null,
    errorMessage: result.error?.message ?? null,
    stepCount: result.stepCount,
    finalScreenshotPath,
    endedAt: deps.clock.now(),
    verification: verification ?? null,
  });
  return {
    status: result.status,
    summary: result.summary,
    result_data: resultData,
    trace_id: taskId,
    step_count: result.stepCount,
    final_screenshot_path: finalScreenshotPath,
    ...(result.error ? { error: result.error } : {}),
    ...(usage ? { usage } : {}),
    ...(verification ? { verification } : {}),
  };
}

/** A final answer that is a JSON object or array is returned as structured `result_data`. */
function parseResultData(summary: string | null): unknown {
  const text = summary?.trim();
  if (!text || !(text.startsWith('{') || text.startsWith('['))) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
