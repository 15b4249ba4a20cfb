// Splits an action list into requests the jail-service accepts: at most MAX_ACTIONS_PER_REQUEST
// actions and MAX_REQUEST_BODY_BYTES bytes each (issue 12: one oversized batch got a 413).
import {
  type Action,
  type ActionResult,
  MAX_ACTIONS_PER_REQUEST,
  MAX_REQUEST_BODY_BYTES,
} from '@clawdie/kit/jail-api';
import { OperatorError } from '../../errors.js';

/** Room left in a body for `{"actions":[…]}`, the separators and an optional `timeout_ms`. */
const ENVELOPE_BYTES = 256;

export interface ActionBatch {
  /** Index of the batch's first action in the whole list. */
  offset: number;
  actions: Action[];
}

/**
 * Consecutive batches within the jail-service's count and body-size limits, in order. Throws
 * OperatorError OPERATOR_REJECTED (the model's mistake, not an outage) for one action that alone
 * is larger than a request may be; nothing is sent then.
 */
export function splitActionBatches(
  actions: readonly Action[],
  limits = { count: MAX_ACTIONS_PER_REQUEST, bytes: MAX_REQUEST_BODY_BYTES },
): ActionBatch[] {
  const room = limits.bytes - ENVELOPE_BYTES;
  const batches: ActionBatch[] = [];
  let current: ActionBatch | null = null;
  let used = 0;
  actions.forEach((action, index) => {
    const size = Buffer.byteLength(JSON.stringify(action)) + 1;
    if (size > room) {
      throw new OperatorError(
        'OPERATOR_REJECTED',
        `action ${index + 1} (${action.type}) is ${size} bytes; a request to the jail-service may hold at most ${room}`,
      );
    }
    if (!current || current.actions.length >= limits.count || used + size > room) {
      current = { offset: index, actions: [] };
      batches.push(current);
      used = 0;
    }
    current.actions.push(action);
    used += size;
  });
  return batches;
}

/** Results for the actions of a list that were never sent because an earlier one failed. */
export function skippedResults(actions: readonly Action[], from: number): ActionResult[] {
  return actions.slice(from).map((action, offset) => ({
    index: from + offset,
    type: action.type,
    status: 'skipped' as const,
    duration_ms: 0,
    navigated: false,
  }));
}
