// The network evidence of several `POST /actions` responses as one: a step (or a split batch)
// reports the requests of all its actions, the newest MAX_EVIDENCE_ENTRIES kept.
import { MAX_EVIDENCE_ENTRIES, type NetworkEvidence } from '@clawdie/kit/jail-api';

/** `more` after `sum`; undefined while neither reported evidence (a desktop surface). */
export function mergeEvidence(
  sum: NetworkEvidence | undefined,
  more: NetworkEvidence | undefined,
): NetworkEvidence | undefined {
  if (!more) return sum;
  if (!sum) return more;
  const entries = [...sum.entries, ...more.entries];
  const kept = entries.slice(-MAX_EVIDENCE_ENTRIES);
  return { entries: kept, dropped: sum.dropped + more.dropped + entries.length - kept.length };
}
