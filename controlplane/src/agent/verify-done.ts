/**
 * Verify-before-done: a task's success criteria (text shown/absent, URL, a visual condition) are
 * checked once when the model calls `finished()`. Unmet criteria reject the finish and the model
 * is told what is missing; criteria this environment cannot check (no text probe, no vision
 * judge) do not block and are reported as unverified.
 */
import type { Conversation } from '../model/conversation.js';
import { byCost, checkCheap, describeCondition, isCheap, probeReads } from '../wait/conditions.js';
import type { PageProbe, VisualJudge } from '../wait/wait-types.js';
import type { DoneVerifier, LoopDeps, LoopOptions, LoopResult } from './loop-types.js';

export type { DoneVerifier, VerifyResult } from './loop-types.js';

export interface DoneVerifierDeps {
  probe: PageProbe;
  /** The screen now (JPEG), for the visual criterion. */
  capture?: (signal?: AbortSignal) => Promise<Buffer>;
  judge?: VisualJudge;
}

export function createDoneVerifier(deps: DoneVerifierDeps): DoneVerifier {
  return {
    async verify(criteria, signal) {
      const reads = probeReads(deps.probe, signal);
      const missing: string[] = [];
      const unverified: string[] = [];
      for (const condition of byCost(criteria)) {
        if (isCheap(condition)) {
          const result = await checkCheap(condition, reads);
          if (result.kind === 'unmet') missing.push(result.missing);
          if (result.kind === 'unsupported')
            unverified.push(`${describeCondition(condition)} (${result.missing})`);
        } else if (condition.type === 'visual') {
          // Criteria come cheapest first: no vision call when a cheap one already failed.
          if (missing.length > 0) continue;
          if (!deps.judge || !deps.capture) {
            unverified.push(`${condition.description} (no vision judge configured)`);
            continue;
          }
          const frame = await deps.capture(signal);
          const verdict = await deps.judge.judge(
            { condition: condition.description, frames: [frame], history: [] },
            signal,
          );
          if (verdict.decision !== 'resolved')
            missing.push(`${condition.description}: ${verdict.reason}`);
        } else {
          unverified.push(`${describeCondition(condition)} (not checkable at the end of a task)`);
        }
      }
      return missing.length === 0 ? { ok: true, unverified } : { ok: false, missing, unverified };
    },
  };
}

/** The default verifier of a loop: the operator's page state and screenshots, no text, no judge. */
export function operatorVerifier(deps: LoopDeps): DoneVerifier {
  return createDoneVerifier({
    probe: { state: (signal) => deps.operator.state(signal) },
    capture: async (signal) => (await deps.operator.screenshot(signal)).jpeg,
  });
}

/**
 * Decides whether a terminal step really ends the loop: any ending other than `finished`, or a `finished`
 * whose criteria hold. A rejected finish adds a note for the model and emits `done-rejected`.
 */
export async function acceptEnding(
  result: Omit<LoopResult, 'stepCount'>,
  step: number,
  conversation: Conversation,
  options: LoopOptions,
  deps: LoopDeps,
): Promise<boolean> {
  const criteria = options.successCriteria;
  if (result.status !== 'finished' || !criteria || criteria.length === 0) return true;
  const verifier = deps.verifier ?? operatorVerifier(deps);
  const verdict = await verifier.verify(criteria, deps.signal);
  await deps.emit({
    type: verdict.ok ? 'done-verified' : 'done-rejected',
    step,
    missing: verdict.ok ? [] : verdict.missing,
    unverified: verdict.unverified,
  });
  if (verdict.ok) return true;
  conversation.addNote(
    `The task is not finished yet: ${verdict.missing.join('; ')}. Continue working, then call finished() again when this is done.`,
  );
  return false;
}
