// How a task starts: its `queued` row; before its first step, start_url opened and
// `logged_in_check` evaluated; what the loop is told (instruction with the answer format, domains,
// final-answer check, criteria); what the audit's `task-started` says.
import type { LoopResult } from '../agent/loop/loop-types.js';
import type { BrowserOperator } from '../browser/operator/browser-operator.js';
import { operatorFrames } from '../browser/wait/jail-page-probe.js';
import type { WaitEngine } from '../browser/wait/wait-engine.js';
import type { PageProbe } from '../browser/wait/wait-types.js';
import { compileResultSchema, resultSchemaInstruction } from './result-schema.js';
import type { TaskDeps } from './task-deps.js';
import { type BrowserRunTaskInput, loggedInConditions, successConditions } from './task-input.js';
import type { TaskPlan } from './task-plan.js';

/**
 * The `queued` row, owned by the plan's tenant and actor (the principal admission was given);
 * `unowned`: waiting in the shared queue for whichever replica claims it.
 */
export function createTaskRow(
  taskId: string,
  plan: TaskPlan,
  deps: TaskDeps,
  unowned = false,
): Promise<void> {
  const { input } = plan;
  return deps.repository.createTask({
    ...(unowned ? { unowned } : {}),
    tenant: plan.tenant,
    actor: plan.actor,
    id: taskId,
    instruction: input.instruction,
    startUrl: input.start_url ?? null,
    maxSteps: input.max_steps ?? deps.loop.maxSteps,
    modelName: deps.model.isReplay ? `${deps.model.name} (replay)` : deps.model.name,
    coordinateMode: input.model_profile ?? deps.loop.profile.name,
    createdAt: deps.clock.now(),
  });
}

/** How the loop starts: at once, or with a person asked to log in first; or not at all. */
export type TaskStart = { ended: LoopResult } | { startWithHandoff?: 'login' };

/** What a task starts on: its browser, the page probe, and the run's wait engine (with the judge). */
export interface StartPorts {
  browser: BrowserOperator;
  probe: PageProbe;
  waits: WaitEngine;
}

/**
 * Opens start_url in the task's browser (a failed navigation ends the task START_URL_FAILED), then
 * evaluates `logged_in_check` on `probe` and the browser's screen (failed: the loop starts by
 * asking a person to log in). Rejects only when `signal` aborts or the browser cannot be reached.
 */
export async function startTask(
  input: BrowserRunTaskInput,
  ports: StartPorts,
  signal: AbortSignal,
): Promise<TaskStart> {
  if (input.start_url) {
    const response = await ports.browser.execute(
      [{ type: 'navigate', url: input.start_url }],
      signal,
    );
    const failure = response.results.find((result) => result.status === 'error');
    if (failure) {
      const why = failure.error?.message ?? 'navigation failed';
      const message = `could not open start_url ${input.start_url}: ${why}`;
      return {
        ended: {
          status: 'error',
          summary: null,
          error: { code: 'START_URL_FAILED', message },
          stepCount: 0,
        },
      };
    }
  }
  return (await passesLoggedInCheck(input, ports, signal)) ? {} : { startWithHandoff: 'login' };
}

/**
 * Evaluates a task's `logged_in_check` with the wait engine once start_url has loaded: true when
 * its conditions hold within `timeout_ms` (default 2 s for a redirect to settle, 15 s when a
 * visual condition is judged on the browser's screen). No check: true.
 */
async function passesLoggedInCheck(
  input: BrowserRunTaskInput,
  ports: StartPorts,
  signal: AbortSignal,
): Promise<boolean> {
  const check = input.logged_in_check;
  if (!check) return true;
  const handle = ports.waits.start({
    conditions: loggedInConditions(check),
    timeoutMs: check.timeout_ms ?? (check.visual ? 15_000 : 2000),
    target: {
      probe: ports.probe,
      frames: operatorFrames(ports.browser, 'task-start', { hideCaret: true }),
    },
    signal,
  });
  const outcome = await handle.outcome;
  return outcome.status === 'resolved';
}

/**
 * The per-task loop options: instruction (plus the answer format), domains, final-answer check, and
 * the `computer` action space (no browser navigation) for a desktop task.
 */
export function taskLoopOptions(input: BrowserRunTaskInput) {
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

/** What the audit's `task-started` row says about the task. */
export function startedDetails(input: BrowserRunTaskInput, maxSteps: number) {
  return {
    instruction: input.instruction,
    start_url: input.start_url ?? null,
    domains: input.domains ?? null,
    credential_mode: input.credential_mode ?? 'none',
    surface: input.surface ?? 'browser',
    max_steps: maxSteps,
  };
}
