import type { ActionResult } from '@clawdie/jail-service/api';
import { elapsedMs } from '../clock.js';
import { OperatorError } from '../errors.js';
import type { Conversation } from '../model/conversation.js';
import { allowAllGate } from '../policy/allow-all-gate.js';
import { urlAllowed } from '../policy/domain-match.js';
import type { PlannedStep } from '../uitars/index.js';
import { finishStep } from './finish-step.js';
import type { ExecutedAction, LoopDeps, LoopOptions, StepResult } from './loop-types.js';

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
  options: LoopOptions,
  deps: LoopDeps,
): Promise<StepResult> {
  const terminalIndex = plan.findIndex((planned) => planned.kind !== 'browser');
  const browserSteps = (
    terminalIndex === -1 ? plan : plan.slice(0, terminalIndex)
  ) as BrowserStep[];
  const terminal = (terminalIndex === -1 ? null : plan[terminalIndex]) as
    | Exclude<PlannedStep, BrowserStep>
    | null
    | undefined;

  // With a policy gate, navigation outside the domains is the policy's call (deny or ask); with
  // `allowAllGate` (no tenant policy) the task's own domains are checked here.
  const verdict =
    deps.gate === allowAllGate
      ? { message: refuseNavigation(browserSteps, options.allowedDomains), endTask: false }
      : await gateVerdict(step, browserSteps, deps);
  const refusal = verdict.message;
  if (refusal && verdict.endTask) {
    await deps.emit({
      type: 'step-ended',
      step,
      outcome: 'refused',
      message: refusal,
      at: deps.clock.now(),
    });
    return {
      kind: 'terminal',
      result: {
        status: 'error',
        summary: null,
        error: { code: 'APPROVAL_DENIED', message: refusal },
      },
    };
  }
  if (refusal) {
    conversation.addNote(refusal);
    await deps.emit({
      type: 'step-ended',
      step,
      outcome: 'refused',
      message: refusal,
      at: deps.clock.now(),
    });
    return { kind: 'continue' };
  }
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

  if (terminal?.kind === 'call_user' && (await operatorHandled(step, terminal.content, deps))) {
    conversation.addNote('An operator has handled your request. Continue the task.');
    await deps.emit({
      type: 'step-ended',
      step,
      outcome: 'acted',
      message: 'call_user handled by an operator',
      at: deps.clock.now(),
    });
    return { kind: 'continue' };
  }
  return finishStep(step, terminal ?? null, conversation, options, deps);
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

/** A navigation outside the task's domains is refused before anything runs, and the model told why. */
function refuseNavigation(
  batch: BrowserStep[],
  allowed: readonly string[] | undefined,
): string | null {
  if (!allowed) return null;
  for (const { action } of batch) {
    if (
      (action.type === 'navigate' || action.type === 'open_url') &&
      !urlAllowed(action.url, allowed)
    ) {
      return `Navigation to ${action.url} was refused: this task may only visit ${allowed.join(', ')}.`;
    }
  }
  return null;
}

/** The gate's refusal for this batch (message null when it may run). */
async function gateVerdict(
  step: number,
  batch: BrowserStep[],
  deps: LoopDeps,
): Promise<{ message: string | null; endTask: boolean }> {
  if (batch.length === 0) return { message: null, endTask: false };
  const verdict = await deps.gate(
    { step, actions: batch.map((planned) => planned.action) },
    deps.signal,
  );
  return verdict.allowed
    ? { message: null, endTask: false }
    : { message: verdict.message, endTask: verdict.endTask === true };
}

/** A policy may have an operator handle `call_user` (then the task goes on) instead of ending. */
async function operatorHandled(
  step: number,
  question: string | undefined,
  deps: LoopDeps,
): Promise<boolean> {
  const verdict = await deps.gate({ step, actions: [], callUser: question ?? '' }, deps.signal);
  return verdict.allowed;
}
