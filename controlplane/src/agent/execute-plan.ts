import type { ActionResult } from '@clawdie/jail-service/api';
import { elapsedMs } from '../clock.js';
import { OperatorError } from '../errors.js';
import type { Conversation } from '../model/conversation.js';
import type { PlannedStep } from '../uitars/index.js';
import type { ExecutedAction, LoopDeps } from './loop-types.js';
import type { StepResult } from './run-step.js';

type BrowserStep = Extract<PlannedStep, { kind: 'browser' }>;

/**
 * Runs the browser actions of one reply as a single batch (early exit on failure), then applies
 * the reply's terminal action, if any. A failed action turns the step into feedback for the model
 * and ignores a `finished()` in the same reply: the model must see the failure first.
 */
export async function executePlan(
  step: number,
  plan: PlannedStep[],
  conversation: Conversation,
  deps: LoopDeps,
): Promise<StepResult> {
  const terminalIndex = plan.findIndex((planned) => planned.kind !== 'browser');
  const browserSteps = (
    terminalIndex === -1 ? plan : plan.slice(0, terminalIndex)
  ) as BrowserStep[];
  const terminal = terminalIndex === -1 ? null : plan[terminalIndex];

  const failure = browserSteps.length > 0 ? await runBatch(step, browserSteps, deps) : null;
  if (failure) {
    conversation.addNote(`Your previous action did not work: ${failure}`);
    await deps.emit({
      type: 'step-ended',
      step,
      outcome: 'action_error',
      message: failure,
      at: deps.clock.now(),
    });
    return { kind: 'continue' };
  }

  const at = deps.clock.now();
  if (terminal?.kind === 'finished') {
    await deps.emit({ type: 'step-ended', step, outcome: 'finished', message: null, at });
    return { kind: 'terminal', result: { status: 'end', summary: terminal.content, error: null } };
  }
  if (terminal?.kind === 'call_user') {
    await deps.emit({ type: 'step-ended', step, outcome: 'call_user', message: null, at });
    const summary = terminal.content ?? null;
    return { kind: 'terminal', result: { status: 'call_user', summary, error: null } };
  }
  if (terminal?.kind === 'error_env') {
    const message = terminal.content || 'the model reported an environment error';
    await deps.emit({ type: 'step-ended', step, outcome: 'error_env', message, at });
    const error = { code: 'ENVIRONMENT_ERROR' as const, message };
    return { kind: 'terminal', result: { status: 'error', summary: null, error } };
  }
  await deps.emit({ type: 'step-ended', step, outcome: 'acted', message: null, at });
  return { kind: 'continue' };
}

/** Executes the batch; returns a description of the first failure, or null when all succeeded. */
async function runBatch(
  step: number,
  batch: BrowserStep[],
  deps: LoopDeps,
): Promise<string | null> {
  const started = performance.now();
  let results: ActionResult[];
  try {
    const response = await deps.operator.execute(
      batch.map((planned) => planned.action),
      deps.signal,
    );
    results = response.results;
  } catch (error) {
    // A 400 from the jail-service (e.g. an unknown key name) is the model's mistake, not an outage.
    if (!(error instanceof OperatorError && error.code === 'OPERATOR_REJECTED')) throw error;
    results = batch.map((planned, index) => ({
      index,
      type: planned.action.type,
      status: index === 0 ? 'error' : 'skipped',
      duration_ms: 0,
      navigated: false,
      ...(index === 0 ? { error: { code: 'BAD_REQUEST' as const, message: error.message } } : {}),
    }));
  }
  const executed: ExecutedAction[] = batch.map((planned, index) => ({
    planned,
    result: results[index] ?? {
      index,
      type: planned.action.type,
      status: 'skipped',
      duration_ms: 0,
      navigated: false,
    },
  }));
  await deps.emit({ type: 'actions-executed', step, executed, executeMs: elapsedMs(started) });
  const failed = executed.find((entry) => entry.result.status === 'error');
  if (!failed) return null;
  const detail = failed.result.error
    ? `${failed.result.error.code}: ${failed.result.error.message}`
    : 'failed';
  return `${failed.planned.modelAction.name} (action ${failed.result.index + 1} of ${batch.length}) — ${detail}`;
}
