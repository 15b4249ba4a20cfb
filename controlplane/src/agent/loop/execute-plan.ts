import type { Conversation } from '../model/conversation.js';
import type { PlannedStep } from '../uitars/index.js';
import { finishStep } from './finish-step.js';
import type { LoopDeps, LoopOptions, StepResult } from './loop-types.js';
import { type ActionsOutcome, runActions } from './run-actions.js';

type BrowserStep = Extract<PlannedStep, { kind: 'browser' }>;

/**
 * Runs the browser actions of one reply one by one, each decided by the gate where it lands
 * (run-actions.ts), then applies the reply's terminal action, if any. A failed or refused action,
 * or a page change with actions left, turns the step into feedback for the model and ignores a
 * `finished()` in the same reply: the model must see the new page first.
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

  const outcome: ActionsOutcome =
    browserSteps.length > 0 ? await runActions(step, browserSteps, deps) : { kind: 'done' };
  if (outcome.kind === 'refused') {
    await deps.emit({
      type: 'step-ended',
      step,
      outcome: 'refused',
      message: outcome.message,
      refusal: outcome.refusal,
      at: deps.clock.now(),
    });
    if (outcome.endTask)
      return {
        kind: 'terminal',
        result: {
          status: 'error',
          summary: null,
          error: { code: 'APPROVAL_DENIED', message: outcome.message },
        },
      };
    conversation.addNote(outcome.message);
    return { kind: 'continue' };
  }
  if (outcome.kind === 'failed') {
    conversation.addNote(`Your previous action did not work: ${outcome.message}`);
    await deps.emit({
      type: 'step-ended',
      step,
      outcome: 'action_error',
      message: outcome.message,
      at: deps.clock.now(),
    });
    return { kind: 'continue' };
  }
  if (outcome.kind === 'page-changed') {
    // The rest of the reply (a terminal action too) was meant for a page that is gone.
    conversation.addNote(outcome.message);
    await deps.emit({
      type: 'step-ended',
      step,
      outcome: 'acted',
      message: outcome.message,
      at: deps.clock.now(),
    });
    return { kind: 'continue' };
  }

  if (terminal?.kind === 'call_user' && (await supervisorHandled(step, terminal.content, deps))) {
    conversation.addNote('A supervisor has handled your request. Continue the task.');
    await deps.emit({
      type: 'step-ended',
      step,
      outcome: 'acted',
      message: 'call_user handled by a supervisor',
      at: deps.clock.now(),
    });
    return { kind: 'continue' };
  }
  return finishStep(step, terminal ?? null, conversation, options, deps);
}

/** A policy may have a supervisor handle `call_user` (then the task goes on) instead of ending. */
async function supervisorHandled(
  step: number,
  question: string | undefined,
  deps: LoopDeps,
): Promise<boolean> {
  const verdict = await deps.gate({ step, callUser: question ?? '' }, deps.signal);
  return verdict.allowed;
}
