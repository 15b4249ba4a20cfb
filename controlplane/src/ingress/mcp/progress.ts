// Turns a task run's events into MCP progress updates: one per step, in a few words, and the
// waits for a person (needs_user) or a supervisor's approval (awaiting_approval) between steps.
import type { LoopEvent } from '../../agent/loop/loop-types.js';
import type { StepOutcome } from '../../platform/store/task-records.js';
import { describeAction } from '../../tasks/step-summary.js';

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
 * Returns a function that consumes a task run's events (tasks/run-stream.ts) in order and yields one update per ended
 * step (`progress` = step number, so it only increases), else null. Keeps the last action of the current step; never throws.
 */
export function createProgressTracker(
  maxSteps: number,
): (event: LoopEvent) => ProgressUpdate | null {
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
    if (event.type === 'status-changed' && event.approval) {
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
    // Between the step it interrupted and the next one, so progress still only increases: the
    // run's needs_user status (as REST and SSE report it), then how the takeover ended.
    if (event.type === 'status-changed' && event.status === 'needs_user') {
      const reason = (event.reason ?? 'unknown').replaceAll('_', ' ');
      const message = `needs_user: a person is asked to take over the browser (${reason})`;
      return { progress: step + 0.25, total: maxSteps, message };
    }
    if (event.type === 'handoff-ended') {
      const how =
        event.outcome === 'handed_back'
          ? 'handed back by the supervisor'
          : `takeover ${event.outcome.replaceAll('_', ' ')}`;
      return { progress: event.step + 0.5, total: maxSteps, message: `running: ${how}` };
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
