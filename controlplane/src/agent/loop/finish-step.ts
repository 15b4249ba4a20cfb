import type { Conversation } from '../model/conversation.js';
import type { PlannedStep } from '../uitars/index.js';
import type { LoopDeps, LoopOptions, StepResult } from './loop-types.js';

type Terminal = Exclude<PlannedStep, { kind: 'browser' }>;

/** Applies a reply's terminal action: finished (with the final-answer check), call_user, error_env. */
export async function finishStep(
  step: number,
  terminal: Terminal | null,
  conversation: Conversation,
  options: LoopOptions,
  deps: LoopDeps,
): Promise<StepResult> {
  const ended = (outcome: Parameters<LoopDeps['emit']>[0] & { type: 'step-ended' }) =>
    deps.emit(outcome);
  const at = deps.clock.now();
  if (!terminal) {
    await ended({ type: 'step-ended', step, outcome: 'acted', message: null, at });
    return { kind: 'continue' };
  }
  if (terminal.kind === 'call_user') {
    await ended({ type: 'step-ended', step, outcome: 'call_user', message: null, at });
    if (deps.handoff?.on.has('call_user'))
      return { kind: 'handoff', reason: 'call_user', summary: terminal.content ?? null };
    return {
      kind: 'terminal',
      result: { status: 'call_user', summary: terminal.content ?? null, error: null },
    };
  }
  if (terminal.kind === 'error_env') {
    const message = terminal.content || 'the model reported an environment error';
    await ended({ type: 'step-ended', step, outcome: 'error_env', message, at });
    return {
      kind: 'terminal',
      result: { status: 'error', summary: null, error: { code: 'ENVIRONMENT_ERROR', message } },
    };
  }
  const check = options.checkFinalAnswer?.(terminal.content);
  if (!check || check.ok) {
    await ended({ type: 'step-ended', step, outcome: 'finished', message: null, at });
    const resultData = check?.ok ? { resultData: check.data } : {};
    return {
      kind: 'terminal',
      result: { status: 'finished', summary: terminal.content, error: null, ...resultData },
    };
  }
  const message = `final answer does not match result_schema: ${check.message}`;
  await ended({ type: 'step-ended', step, outcome: 'result_invalid', message, at });
  if (check.giveUp) {
    return {
      kind: 'terminal',
      result: {
        status: 'error',
        summary: terminal.content,
        error: { code: 'RESULT_SCHEMA_MISMATCH', message },
      },
    };
  }
  conversation.addNote(
    `Your final answer was rejected: ${message}. Call finished(content='...') again with only a JSON value that matches the schema.`,
  );
  return { kind: 'continue' };
}
