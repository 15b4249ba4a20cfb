// What becomes of a task's browser when the task ends: kept for a follow-up (`keep_session`)
// when usable, else released with its queue place.
import type { LoopResult } from '../agent/loop/loop-types.js';
import type { BrowserLease } from '../browser/provider/browser-provider.js';
import type { KeptBrowsers } from '../browser/provider/kept-browsers.js';
import type { CompactResult } from './task-input.js';
import { defaultKeepRules, type TaskPlan } from './task-plan.js';

/** The task's wish and where a kept browser would go. */
export interface KeepRequest {
  /** The task asked to keep its browser (`keep_session`). */
  asked: boolean;
  kept: KeptBrowsers;
  /** Its tenant, task, domains and keep rules. */
  as: Parameters<KeptBrowsers['keep']>[2];
}

/** Where a kept browser of the task `taskId` of `plan` goes: its tenant, domains and keep rules. */
export function keepRequestOf(plan: TaskPlan, taskId: string, kept: KeptBrowsers): KeepRequest {
  const { tenant, input, keep } = plan;
  const rules = keep ?? defaultKeepRules;
  return {
    asked: input.keep_session === true,
    kept,
    as: {
      tenant,
      taskId,
      domains: input.domains ?? ['*'],
      idleTtlMs: rules.idleTtlMs,
      maxSessions: rules.maxSessions,
    },
  };
}

/**
 * Keeps the browser of a task that asked to when usable, else releases it and the queue place;
 * returns what the result says about it (`session_id`, `session_refused`).
 */
export async function keepOrRelease(
  lease: BrowserLease,
  releaseSlot: () => void,
  result: LoopResult,
  request: KeepRequest,
): Promise<Partial<CompactResult>> {
  const session = request.asked ? keep(lease, releaseSlot, result, request) : null;
  if (session && 'sessionId' in session) return { session_id: session.sessionId };
  await lease.release();
  releaseSlot();
  return session ? { session_id: null, session_refused: session.refused } : {};
}

function keep(
  lease: BrowserLease,
  releaseSlot: () => void,
  result: LoopResult,
  request: KeepRequest,
) {
  const unusable =
    lease.id === 'none'
      ? 'the task had no browser'
      : result.status === 'aborted'
        ? 'the task was aborted'
        : result.error?.code.startsWith('OPERATOR_')
          ? `its browser failed (${result.error.code})`
          : null;
  if (unusable) return { refused: unusable };
  return request.kept.keep(lease, releaseSlot, request.as);
}
