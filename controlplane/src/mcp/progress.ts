// Turns agent-loop events into MCP progress updates: one per step, in a few words.
import type { LoopEvent } from '../agent/loop-types.js';
import type { StepOutcome } from '../store/task-records.js';
import { describeAction } from '../tasks/step-summary.js';
import type { PendingApproval } from '../tasks/task-events.js';

/** What the tracker consumes: the loop's events, and the task run's approval waits. */
export type ProgressSource = LoopEvent | { type: 'approval-pending'; approval: PendingApproval };

/** The payload of one `notifications/progress` (without the token). */
export interface ProgressUpdate {
  progress: number;
  total: number;
  message: string;
}

/** Steps that end without a browser action are named by their outcome (others: `plan error`). */
const outcomeWords: Partial<Record<StepOutcome, string>> = {
  acted: 'no action',
  finished: 'finished',
  call_user: 'asks the user',
  error_env: 'environment error',
  parse_error: 'unreadable model reply',
  refused: 'navigation refused',
  result_invalid: 'answer does not match result_schema',
  aborted: 'aborted during the step',
};

const outcomeText = (outcome: StepOutcome) => outcomeWords[outcome] ?? outcome.replaceAll('_', ' ');

/**
 * Returns a function that consumes a task's events in order and yields one update per ended
 * step (`progress` = step number, so it only increases), else null. Keeps the last action of the current step; never throws.
 */
export function createProgressTracker(
  maxSteps: number,
): (event: ProgressSource) => ProgressUpdate | null {
  let lastAction: string | null = null;
  let step = 0;
  let waits = 0;
  return (event) => {
    if (event.type === 'step-started') {
      lastAction = null;
      step = event.step;
      waits = 0;
    }
    // Inside the step it holds back (after step - 1 ended, before this one ends).
    if (event.type === 'approval-pending') {
      const { approval } = event;
      waits += 1;
      return {
        progress: step - 0.5 + Math.min(waits, 40) / 100,
        total: maxSteps,
        message: `awaiting_approval: ${approval.kind.replaceAll('_', ' ')} approval ${approval.id} pending (${approval.reason})`,
      };
    }
    if (event.type === 'actions-executed') {
      const last = event.executed.at(-1);
      if (last) lastAction = describeAction(last.planned.action);
    }
    // Between the step it interrupted and the next one, so progress still only increases.
    if (event.type === 'handoff-started' || event.type === 'handoff-ended') {
      const reason = event.reason.replaceAll('_', ' ');
      const message =
        event.type === 'handoff-started'
          ? `needs_user: a person is asked to take over the browser (${reason})`
          : `running: ${event.outcome === 'handed_back' ? 'handed back by the operator' : `takeover ${event.outcome.replaceAll('_', ' ')}`}`;
      const offset = event.type === 'handoff-started' ? 0.25 : 0.5;
      return { progress: event.step + offset, total: maxSteps, message };
    }
    if (event.type !== 'step-ended') return null;
    const terminal = event.outcome === 'finished' || event.outcome === 'call_user';
    const failed = event.outcome === 'action_error' ? ' (failed)' : '';
    const words = terminal || !lastAction ? outcomeText(event.outcome) : `${lastAction}${failed}`;
    return {
      progress: event.step,
      total: maxSteps,
      message: `step ${event.step}/${maxSteps}: ${words}`,
    };
  };
}
