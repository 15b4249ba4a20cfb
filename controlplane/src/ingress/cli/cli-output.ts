// Human-facing CLI output: progress on stderr, results on stdout. The only module allowed console.
import type { LoopEvent } from '../../agent/loop/loop-types.js';
import { describeExecuted } from '../../tasks/step-summary.js';
import type { CompactResult } from '../../tasks/task-input.js';
import { describeUsage } from '../../tasks/task-usage.js';
import { describeVerification } from '../../tasks/task-verification.js';

export function printLine(text: string): void {
  console.error(text);
}

export function printResult(result: CompactResult): void {
  console.log(JSON.stringify(result, null, 2));
}

const ms = (value: number) =>
  value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;

/**
 * Collects one step's events and prints a single summary line when the step ends, one line per
 * status the run reports (the same statuses REST, SSE, MCP and the dashboard show), and at the
 * end one line of the task's model usage and cost.
 */
export function createProgressPrinter(
  maxSteps: number,
  write: (line: string) => void = printLine,
): (event: LoopEvent) => void {
  let capture = 0;
  let model = 0;
  let execute = 0;
  let actions: string[] = [];
  let thought: string | null = null;
  return (event) => {
    switch (event.type) {
      case 'step-started':
        capture = 0;
        model = 0;
        execute = 0;
        actions = [];
        thought = null;
        return;
      case 'screenshot-taken':
        capture = event.captureMs;
        return;
      case 'prediction-received':
        model = event.modelMs;
        thought = event.thought;
        return;
      case 'actions-executed':
        execute = event.executeMs;
        actions = event.executed.map(describeExecuted);
        return;
      case 'step-ended': {
        const what = actions.length > 0 ? actions.join(', ') : event.outcome;
        const timing = `capture ${ms(capture)} · model ${ms(model)} · execute ${ms(execute)}`;
        write(`step ${event.step}/${maxSteps} · ${what} · ${timing}`);
        if (thought)
          write(`  thought: ${thought.length > 110 ? `${thought.slice(0, 107)}...` : thought}`);
        if (event.message) write(`  ${event.outcome}: ${event.message}`);
        return;
      }
      case 'status-changed':
        write(`status: ${describeStatus(event)}`);
        return;
      case 'task-started':
        if (event.model) write(`model: ${event.model.name} (profile ${event.model.profile})`);
        return;
      case 'task-ended':
        if (event.result.verification)
          write(`verification: ${describeVerification(event.result.verification)}`);
        if (event.result.usage) write(`usage: ${describeUsage(event.result.usage)}`);
        return;
      case 'final-screenshot-taken':
        return;
    }
  };
}

function describeStatus(event: Extract<LoopEvent, { type: 'status-changed' }>): string {
  if (event.status === 'needs_user') return `needs_user (${event.reason ?? 'call_user'})`;
  if (event.status === 'awaiting_approval' && event.approval)
    return `awaiting_approval (${event.approval.reason}; answer at /v1/approvals/${event.approval.id})`;
  return event.status;
}

/** Asked-for help (`clawdie help`, `--help`) on stdout; usage errors go to stderr. */
export function printHelp(text: string): void {
  console.log(text);
}

/** A command's machine-readable answer on stdout. */
export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}
