/**
 * Verify-before-done: a task's success criteria (text shown/absent, URL, a visual condition) are
 * checked once when the model calls `finished()`. Unmet criteria reject the finish and the model
 * is told what is missing; criteria this environment cannot check (no text probe, no vision
 * judge, a judge that failed) do not block and are reported as unverified.
 */

import {
  byCost,
  type CheckResult,
  checkCheap,
  describeCondition,
  isCheap,
  probeReads,
} from '../../browser/wait/conditions.js';
import type { VisualCheck } from '../../browser/wait/visual-check.js';
import type { PageProbe } from '../../browser/wait/wait-types.js';
import type { Conversation } from '../model/conversation.js';
import type { DoneVerifier, LoopDeps, LoopOptions, LoopResult } from './loop-types.js';

export type { DoneVerifier, VerifyResult } from './loop-types.js';

export interface DoneVerifierDeps {
  probe: PageProbe;
  /** Decides the visual criterion (wait/visual-check.ts: the judge on the screen); absent: none. */
  visual?: VisualCheck | undefined;
}

export function createDoneVerifier(deps: DoneVerifierDeps): DoneVerifier {
  return {
    async verify(criteria, signal) {
      const reads = probeReads(deps.probe, signal);
      const missing: string[] = [];
      const unverified: string[] = [];
      for (const condition of byCost(criteria)) {
        let result: CheckResult;
        if (isCheap(condition)) {
          result = await checkCheap(condition, reads);
        } else if (condition.type === 'visual') {
          // Criteria come cheapest first: no vision call when a cheap one already failed.
          if (missing.length > 0) continue;
          result = deps.visual
            ? await deps.visual(condition.description, signal)
            : { kind: 'unsupported', missing: 'no vision judge configured' };
        } else {
          result = { kind: 'unsupported', missing: 'not checkable at the end of a task' };
        }
        if (result.kind === 'unmet') missing.push(result.missing);
        if (result.kind === 'unsupported')
          unverified.push(`${describeCondition(condition)} (${result.missing})`);
      }
      return missing.length === 0 ? { ok: true, unverified } : { ok: false, missing, unverified };
    },
  };
}

/** The default verifier of a loop: the operator's page state (the URL), no text, no judge. */
export function operatorVerifier(
  deps: Pick<LoopDeps, 'operator'>,
  visual?: VisualCheck,
): DoneVerifier {
  return createDoneVerifier({
    probe: { state: (signal) => deps.operator.state(signal) },
    visual,
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
