// A visual condition decided once, through the wait engine and its judge: verify-before-done's
// `success_criteria.visual`. The judge sees the screen now; a `partial` verdict (the page is still
// changing towards it) keeps it watching with the earlier frames and verdicts as context.
import type { CheckResult } from './conditions.js';
import type { WaitEngine } from './wait-engine.js';
import type { FrameSource } from './wait-types.js';

/** Decides a visual condition: held, unmet (what is missing) or unsupported (why unknowable). */
export type VisualCheck = (description: string, signal?: AbortSignal) => Promise<CheckResult>;

/** How long a `partial` verdict may keep a check watching. */
export const VISUAL_CHECK_TIMEOUT_MS = 10_000;

/**
 * A decisive wait on `frames` per call: the first `resolved` holds, the first `watching` is
 * unmet, `partial` keeps watching up to `timeoutMs` (then unmet). A judge that fails makes the
 * condition unknowable (`unsupported`), never met. Undefined when `engine` has no judge.
 */
export function visualCheck(
  engine: WaitEngine,
  frames: FrameSource,
  timeoutMs = VISUAL_CHECK_TIMEOUT_MS,
): VisualCheck | undefined {
  if (!engine.hasJudge) return undefined;
  return async (description, signal) => {
    const outcome = await engine.start({
      conditions: [{ type: 'visual', description }],
      timeoutMs,
      target: { frames },
      decisive: true,
      ...(signal ? { signal } : {}),
    }).outcome;
    signal?.throwIfAborted();
    switch (outcome.status) {
      case 'resolved':
        return { kind: 'held' };
      case 'failed':
      case 'cancelled':
        return { kind: 'unsupported', missing: `the judge could not decide: ${outcome.detail}` };
      default:
        return { kind: 'unmet', missing: outcome.detail };
    }
  };
}
