import { endingOf, failed } from '../../tasks/task-ending.js';
import type { ModelCallHooks, VisionModel } from '../model/chat-types.js';
import { Conversation } from '../model/conversation.js';
import { createGuardHook } from './loop-guard-hook.js';
import { handOver } from './loop-handoff.js';
import type { LoopDeps, LoopOptions, LoopResult } from './loop-types.js';
import { runStep } from './run-step.js';
import { acceptEnding } from './verify-done.js';

/**
 * The UI-TARS agent loop (GUIAgent semantics) as a function over an injected model, operator and
 * clock: screenshot → model → parse → execute, until `finished()`, `call_user()`, the step limit,
 * an abort or an error. Never throws: every ending is a LoopResult with a typed status and code
 * (a throw is mapped by `endingOf`, tasks/task-ending.ts).
 */
export async function runAgentLoop(options: LoopOptions, deps: LoopDeps): Promise<LoopResult> {
  const conversation = new Conversation({
    profile: options.profile,
    instruction: options.instruction,
    actionSpace: options.actionSpace,
    imageWindow: options.imageWindow,
  });
  const state = { step: 0, unusableReplies: 0 };
  let stuckReported = false;
  /** The step started and not yet ended: an abort or a failure ends it as such. */
  let openStep: number | null = null;
  const observed: LoopDeps = {
    ...deps,
    emit: (event) => {
      if (event.type === 'task-stuck') stuckReported = true;
      if (event.type === 'step-started') openStep = event.step;
      if (event.type === 'step-ended' && event.step === openStep) openStep = null;
      return deps.emit(event);
    },
  };
  const guard = createGuardHook(options.guard, options.instruction, conversation, observed);
  const stepDeps: LoopDeps = {
    ...observed,
    emit: guard.emit,
    model: withRetryHooks(deps.model, {
      budget: { remaining: options.modelRetryBudget ?? Number.POSITIVE_INFINITY },
      onRetry: (retry) => observed.emit({ type: 'model-retried', step: state.step, ...retry }),
    }),
  };
  const handOverAt = async (reason: Parameters<typeof handOver>[0], summary: string | null) => {
    const ended = await handOver(reason, state.step, summary, conversation, stepDeps);
    if (ended) await captureFinal(deps);
    return ended ? { ...ended, stepCount: state.step } : null;
  };
  try {
    if (options.startWithHandoff) {
      const summary = 'the site is not logged in (logged_in_check failed)';
      if (!deps.handoff) return { status: 'call_user', summary, error: null, stepCount: 0 };
      const ended = await handOverAt(options.startWithHandoff, summary);
      if (ended) return ended;
    }
    while (state.step < options.maxSteps) {
      await deps.waitWhilePaused?.(deps.signal);
      deps.signal?.throwIfAborted();
      state.step += 1;
      for (const note of deps.notes?.() ?? []) conversation.addNote(note);
      const outcome = await runStep(state.step, conversation, options, stepDeps);
      state.unusableReplies = outcome.kind === 'unusable' ? state.unusableReplies + 1 : 0;
      if (outcome.kind === 'handoff') {
        const ended = await handOverAt(outcome.reason, outcome.summary);
        if (ended) return ended;
        continue;
      }
      if (
        outcome.kind === 'terminal' &&
        (await acceptEnding(outcome.result, state.step, conversation, options, stepDeps))
      ) {
        await captureFinal(deps);
        return { ...outcome.result, stepCount: state.step };
      }
      if (outcome.kind === 'unusable' && state.unusableReplies >= options.maxParseFailures) {
        const message = `${state.unusableReplies} consecutive model replies had no usable action; last: ${outcome.message}`;
        return failed('PARSE_FAILED', message, state.step);
      }
      stuckReported = false;
      const stopped = await guard.afterStep(state.step);
      if ((stuckReported || stopped) && deps.handoff?.on.has('stuck')) {
        const ended = await handOverAt('stuck', stopped?.summary ?? 'no visible progress');
        if (ended) return ended;
        continue;
      }
      if (stopped) {
        await captureFinal(deps);
        return { ...stopped, stepCount: state.step };
      }
    }
    await captureFinal(deps);
    return { status: 'max_steps', summary: null, error: null, stepCount: state.step };
  } catch (error) {
    const ending = endingOf(error, state.step, deps.signal);
    if (openStep !== null) await endOpenStep(openStep, ending, observed);
    return ending;
  }
}

/** A step cut short is recorded and counted like any other: `aborted`, or `failed` with why. */
async function endOpenStep(step: number, ending: LoopResult, deps: LoopDeps): Promise<void> {
  // Cut by the task's signal (an abort or its timeout): aborted; else failed, with why.
  const aborted = deps.signal?.aborted === true;
  await deps.emit({
    type: 'step-ended',
    step,
    outcome: aborted ? 'aborted' : 'failed',
    message: aborted ? 'the task was aborted during this step' : (ending.error?.message ?? null),
    at: deps.clock.now(),
  });
}

/** Best effort: the screen as the task left it. A failure here never changes the result. */
async function captureFinal(deps: LoopDeps): Promise<void> {
  try {
    const screenshot = await deps.operator.screenshot(deps.signal);
    await deps.emit({ type: 'final-screenshot-taken', screenshot });
  } catch {
    // The step screenshots are kept; a missing final frame is not a task failure.
  }
}

/** The task's model: every call spends the task's one retry budget and reports its retries. */
function withRetryHooks(model: VisionModel, hooks: ModelCallHooks): VisionModel {
  return {
    name: model.name,
    isReplay: model.isReplay,
    complete: (request, signal) => model.complete(request, signal, hooks),
  };
}
