import type { Conversation } from '../model/conversation.js';
import type { HandoffReason } from './handoff-types.js';
import type { LoopDeps, LoopResult } from './loop-types.js';

/**
 * Hands the browser to a person and waits. Handed back: the model is told what the user said
 * they completed (their note, nothing else they typed) and the loop goes on (null). Timed out:
 * the policy's choice — end as call_user, or abort.
 */
export async function handOver(
  reason: HandoffReason,
  step: number,
  summary: string | null,
  conversation: Conversation,
  deps: LoopDeps,
): Promise<Omit<LoopResult, 'stepCount'> | null> {
  const handoff = deps.handoff;
  if (!handoff) throw new Error('handOver without a handoff port');
  await deps.emit({ type: 'handoff-started', step, reason, at: deps.clock.now() });
  const outcome = await handoff.request({ reason, step, summary }, deps.signal);
  await deps.emit({
    type: 'handoff-ended',
    step,
    reason,
    outcome: outcome.kind,
    at: deps.clock.now(),
  });
  if (outcome.kind === 'handed_back') {
    const note = outcome.note?.trim() ? outcome.note.trim() : 'no note';
    conversation.addNote(
      `A person took over the browser (${reason.replaceAll('_', ' ')}) and handed it back. The user completed: ${note}. Continue the task from the current screen.`,
    );
    return null;
  }
  if (outcome.onTimeout === 'abort')
    return { status: 'aborted', summary: `no supervisor took over (${reason})`, error: null };
  return {
    status: 'call_user',
    summary: summary ?? `a person is needed (${reason}) and no supervisor took over in time`,
    error: null,
  };
}
