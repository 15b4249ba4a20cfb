import type { ImageCodec } from '@clawdie/jail-service/images';
import type { Logger } from 'pino';
import type { LoopHandoff } from '../agent/handoff-types.js';
import { endingOf, runAgentLoop } from '../agent/loop.js';
import type { LoopEvent, LoopOptions, LoopResult } from '../agent/loop-types.js';
import type { DoneVerifier } from '../agent/verify-done.js';
import { type AuditLog, discardAuditLog } from '../audit/audit-log.js';
import { createTaskAudit } from '../audit/task-audit.js';
import type { Clock } from '../clock.js';
import type { VisionModel } from '../model/chat-types.js';
import type { BrowserOperator } from '../operator/browser-operator.js';
import type { ActionGate } from '../policy/gate-types.js';
import type { TaskRecorder } from '../recording/task-recorder.js';
import type { ScreenshotFiles } from '../store/screenshot-files.js';
import type { TaskStatus } from '../store/task-records.js';
import type { TaskRepository } from '../store/task-repository.js';
import type { PageProbe } from '../wait/wait-types.js';
import { passesLoggedInCheck } from './logged-in-check.js';
import { compileResultSchema, resultSchemaInstruction } from './result-schema.js';
import {
  type BrowserRunTaskInput,
  type CompactResult,
  successConditions,
  type TaskResultStatus,
} from './task-input.js';
import type { TaskPlan } from './task-plan.js';
import { createTraceRecorder } from './trace-recorder.js';

/** The configured loop options, and whether the task run wraps its operator in the smart wait. */
export type LoopDefaults = Omit<LoopOptions, 'instruction'> & { smartWait?: boolean | undefined };

export interface RunBrowserTaskDeps {
  repository: TaskRepository;
  screenshots: ScreenshotFiles;
  model: VisionModel;
  /** What the loop drives: the task's browser, or the whole display for a desktop task. */
  operator: BrowserOperator;
  /** The task's browser (its jail-service) where start_url opens; default `operator`. */
  browser?: BrowserOperator;
  clock: Clock;
  /** The process's image codec (platform.ts selects it once: CLAWDIE_IMAGE_ENCODER). */
  images: ImageCodec;
  logger: Logger;
  loop: LoopDefaults;
  newId: () => string;
  /** Where task start/end, actions and refusals are recorded (default: nowhere). */
  audit?: AuditLog;
  /** Checks `success_criteria` on finished(); default: the operator's URL only. */
  verifier?: DoneVerifier;
  /** Records `record: true` tasks run by the task service (absent: they run unrecorded, warned). */
  recorder?: TaskRecorder;
}

export interface RunBrowserTaskOptions {
  /**
   * Decides every batch before it runs: the plan's policy gate, or `unpolicedGate` for a plan
   * without a policy. Required: a task never runs without one.
   */
  gate: ActionGate;
  signal?: AbortSignal;
  /** Called after each event is recorded; must not throw (progress printing, SSE). */
  onEvent?: (event: LoopEvent, taskId: string) => void;
  /** The task's id; its `queued` row exists (task-run.ts `createTaskRow`). */
  taskId: string;
  /** Blocks the loop at the start of a step while the task is paused (see PauseGate). */
  waitWhilePaused?: (signal?: AbortSignal) => Promise<void>;
  /** Human takeover for this task (policy `handoff`); absent: none. */
  handoff?: LoopHandoff | undefined;
  /** Reads the page for `logged_in_check` (default: the browser's state: URL and title). */
  probe?: PageProbe | undefined;
}

const statusMap: Record<LoopResult['status'], TaskResultStatus> = {
  end: 'finished',
  call_user: 'call_user',
  user_stopped: 'aborted',
  max_steps: 'max_steps',
  error: 'error',
};

/**
 * Drives the loop of a task whose row exists and whose browser is held (task-run.ts owns both,
 * and gives `deps.operator` already wrapped): start_url, logged_in_check, the loop, the timeout,
 * then the ending on the row. Never throws for task failures: every ending (including abort,
 * timeout and a dead browser) is recorded and returned with a typed status; the trace (steps,
 * actions, screenshots) is kept whatever the ending.
 */
export async function runBrowserTask(
  plan: TaskPlan,
  deps: RunBrowserTaskDeps,
  options: RunBrowserTaskOptions,
): Promise<CompactResult> {
  const { input } = plan;
  const { taskId } = options;
  const maxSteps = input.max_steps ?? deps.loop.maxSteps;
  const logger = deps.logger.child({ taskId });
  const recorder = createTraceRecorder(taskId, { ...deps, logger });
  const audit = createTaskAudit(deps.audit ?? discardAuditLog, taskId, plan.actor, logger);
  const { operator } = deps;
  const timeout = input.timeout_s ? AbortSignal.timeout(input.timeout_s * 1000) : null;
  const signals = [options.signal, timeout].filter(
    (s): s is AbortSignal => s !== undefined && s !== null,
  );
  const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;

  deps.repository.markStarted(taskId, deps.clock.now());
  logger.info({ instruction: input.instruction, startUrl: input.start_url }, 'task-started');
  audit.started({
    instruction: input.instruction,
    start_url: input.start_url ?? null,
    domains: input.domains ?? null,
    credential_mode: input.credential_mode ?? 'none',
    surface: input.surface ?? 'browser',
    max_steps: maxSteps,
  });
  let result: LoopResult;
  try {
    const browser = deps.browser ?? deps.operator;
    const opened = input.start_url ? await openStartUrl(input.start_url, browser, signal) : null;
    const probe = options.probe ?? { state: (s?: AbortSignal) => browser.state(s) };
    const loggedIn = opened
      ? true
      : await passesLoggedInCheck(input, probe, deps.clock, deps.images, signal);
    if (!loggedIn) logger.info('logged_in_check failed: asking a person to log in');
    result =
      opened ??
      (await runAgentLoop(
        {
          ...deps.loop,
          ...taskLoopOptions(input),
          maxSteps,
          ...(loggedIn ? {} : { startWithHandoff: 'login' as const }),
        },
        {
          model: deps.model,
          operator,
          clock: deps.clock,
          images: deps.images,
          ...(signal ? { signal } : {}),
          gate: options.gate,
          ...(options.waitWhilePaused ? { waitWhilePaused: options.waitWhilePaused } : {}),
          ...(options.handoff ? { handoff: options.handoff } : {}),
          ...(deps.verifier ? { verifier: deps.verifier } : {}),
          emit: async (event) => {
            await recorder.record(event);
            audit.event(event);
            options.onEvent?.(event, taskId);
          },
        },
      ));
  } catch (error) {
    result = endingOf(error, 0, signal);
  }
  if (timeout?.aborted && result.status === 'user_stopped' && !options.signal?.aborted) {
    const message = `task exceeded its timeout of ${input.timeout_s} s`;
    result = { ...result, status: 'error', error: { code: 'TASK_TIMEOUT', message } };
  }
  const compact = finish(taskId, result, recorder.lastScreenshotPath(), deps, logger);
  audit.ended({
    status: compact.status,
    step_count: compact.step_count,
    error: compact.error?.code ?? null,
  });
  return compact;
}

/**
 * The per-task loop options: instruction (plus the answer format), domains, final-answer check, and
 * the `computer` action space (no browser navigation) for a desktop task.
 */
function taskLoopOptions(input: BrowserRunTaskInput) {
  const schema = input.result_schema;
  return {
    ...(input.surface === 'desktop' ? { actionSpace: 'computer' as const } : {}),
    instruction: schema
      ? `${input.instruction}${resultSchemaInstruction(schema)}`
      : input.instruction,
    allowedDomains: input.domains,
    checkFinalAnswer: schema ? compileResultSchema(schema) : undefined,
    successCriteria: successConditions(input.success_criteria),
  };
}

async function openStartUrl(
  url: string,
  operator: BrowserOperator,
  signal?: AbortSignal,
): Promise<LoopResult | null> {
  const response = await operator.execute([{ type: 'navigate', url }], signal);
  const failure = response.results.find((r) => r.status === 'error');
  if (!failure) return null;
  const message = `could not open start_url ${url}: ${failure.error?.message ?? 'navigation failed'}`;
  return {
    status: 'error',
    summary: null,
    error: { code: 'START_URL_FAILED', message },
    stepCount: 0,
  };
}

function finish(
  taskId: string,
  result: LoopResult,
  finalScreenshotPath: string | null,
  deps: RunBrowserTaskDeps,
  logger: Logger,
): CompactResult {
  const status = statusMap[result.status];
  const resultData = 'resultData' in result ? result.resultData : parseResultData(result.summary);
  deps.repository.endTask(taskId, {
    status: status satisfies TaskStatus,
    summary: result.summary,
    resultData,
    errorCode: result.error?.code ?? null,
    errorMessage: result.error?.message ?? null,
    stepCount: result.stepCount,
    finalScreenshotPath,
    endedAt: deps.clock.now(),
  });
  logger.info({ status, steps: result.stepCount, error: result.error }, 'task-ended');
  return {
    status,
    summary: result.summary,
    result_data: resultData,
    trace_id: taskId,
    step_count: result.stepCount,
    final_screenshot_path: finalScreenshotPath,
    ...(result.error ? { error: result.error } : {}),
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
