// No silent false success (issue 23): a `finished` task is checked against what went over the
// wire. The run's ledger reads the step events (the requests each step caused, the success
// criteria's check) and gives the verdict the compact result carries beside `status`:
//
// | what was seen                                                           | verdict      |
// | ----------------------------------------------------------------------- | ------------ |
// | the last POST/PUT/PATCH/DELETE got 4xx/5xx, or no response (a network    | `unverified` |
// |   error, or none within the settle time)                                 |              |
// | success criteria that could not be checked (no judge, no text probe)     | `unverified` |
// | the last state-changing request got 1xx–3xx (a 303 after a form POST)    | `verified`   |
// | no state-changing request, and the success criteria were checked and met | `verified`   |
// | no state-changing request, and the answer claims a change was made       | `unverified` |
// |   ("Payment … completed", "submitted", "order placed", …)               |              |
// | anything else (a read-only task, a surface without a network view)       | `unchecked`  |
import { type NetworkEntry, STATE_CHANGING_METHODS } from '@clawdie/kit/jail-api';
import type { LoopEvent } from '../agent/loop/loop-types.js';
import {
  MAX_VERIFICATION_EVIDENCE,
  type TaskVerification,
  type VerificationEvidence,
} from './verification-schema.js';

export type { TaskVerification } from './verification-schema.js';

/** What a finished answer claims when it says a change was made. */
const CLAIMS_A_CHANGE =
  /\b(submitted|complete[ds]?|paid|payment|purchased|ordered|order (?:was |has been )?placed|booked|sent|saved|created|deleted|removed|updated|confirmed|registered|applied|signed up|subscribed|posted|transferred|checked out|successful(?:ly)?)\b/i;

interface Seen extends NetworkEntry {
  step: number;
}

interface CriteriaCheck {
  unverified: string[];
}

export interface EvidenceLedger {
  /** A run recorder (run-stream.ts): keeps the requests and the last success-criteria check. */
  record(event: LoopEvent): undefined;
  /** The verification of a `finished` ending with this answer. */
  verdict(summary: string | null): TaskVerification;
}

/** `networkVisible`: false for a surface that reports no requests (the desktop). */
export function createEvidenceLedger(networkVisible: boolean): EvidenceLedger {
  const requests: Seen[] = [];
  let criteria: CriteriaCheck | null = null;
  return {
    record(event) {
      if (event.type === 'actions-executed' && event.network)
        for (const entry of event.network.entries) requests.push({ ...entry, step: event.step });
      if (event.type === 'done-verified') criteria = { unverified: event.unverified };
      return undefined;
    },
    verdict: (summary) => verdictOf(requests, criteria, summary, networkVisible),
  };
}

export function verdictOf(
  requests: readonly Seen[],
  criteria: CriteriaCheck | null,
  summary: string | null,
  networkVisible: boolean,
): TaskVerification {
  const lastIndex = requests.findLastIndex((entry) => STATE_CHANGING_METHODS.has(entry.method));
  const last = requests[lastIndex];
  const evidence = last ? evidenceFrom(requests, lastIndex) : [];
  if (last && (last.status === null || last.status >= 400)) {
    const answer = last.status === null ? (last.error ?? 'no response') : `HTTP ${last.status}`;
    return {
      verdict: 'unverified',
      reason: `the last state-changing request (${last.method} ${last.url}) failed: ${answer}`,
      evidence,
    };
  }
  if (criteria && criteria.unverified.length > 0)
    return {
      verdict: 'unverified',
      reason: `success criteria could not be checked: ${criteria.unverified.join('; ')}`,
      evidence,
    };
  if (last)
    return {
      verdict: 'verified',
      reason: `the last state-changing request (${last.method} ${last.url}) got HTTP ${last.status}`,
      evidence,
    };
  if (criteria)
    return { verdict: 'verified', reason: 'the success criteria were met', evidence: [] };
  if (networkVisible && summary && CLAIMS_A_CHANGE.test(summary))
    return {
      verdict: 'unverified',
      reason: 'the answer reports a change, but the task sent no state-changing request',
      evidence: [],
    };
  return {
    verdict: 'unchecked',
    reason: networkVisible
      ? 'no state-changing request and no success criteria to check'
      : 'this surface reports no network evidence',
    evidence: [],
  };
}

/** The state-changing request, and the main-frame document that followed it (its redirect). */
function evidenceFrom(requests: readonly Seen[], index: number): VerificationEvidence[] {
  const picked = [requests[index] as Seen];
  const next = requests[index + 1];
  if (next?.main_frame && next.kind === 'document') picked.push(next);
  return picked.slice(0, MAX_VERIFICATION_EVIDENCE).map(({ method, url, status, error, step }) => ({
    method,
    url,
    status,
    ...(error ? { error } : {}),
    step,
  }));
}

/** One line for people: `unverified — the last state-changing request (POST …) failed: HTTP 500`. */
export function describeVerification(verification: TaskVerification): string {
  return `${verification.verdict} — ${verification.reason}`;
}
