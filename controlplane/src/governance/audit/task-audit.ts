import type { Logger } from 'pino';
import type { LoopEvent } from '../../agent/loop/loop-types.js';
import { appendOrLog } from './append-or-log.js';
import type { AuditEvent, AuditLog } from './audit-log.js';
import { auditedAction, capText } from './bounded-text.js';

/**
 * Records the audit-worthy parts of one task's run. Each method resolves once its rows are
 * committed and never rejects (a failure is logged instead).
 */
export interface TaskAudit {
  started(details: Record<string, unknown>): Promise<void>;
  /** Undefined when the event is not audited (so the run's delivery of it stays synchronous). */
  event(event: LoopEvent): Promise<void> | undefined;
  ended(details: Record<string, unknown>): Promise<void>;
}

type AuditedRow = [type: AuditEvent['type'], data: Record<string, unknown>];

/**
 * Maps a task run's events onto audit rows for one task: each executed action (typed text as
 * length and digest only), each refused step with its kind (`step-refused`: navigation, host rule,
 * credential field, reply limit, approval denied or expired, landing changed, …), each task-stuck
 * report, and the task's end (`task-ended`); its start is `started(details)`. The rows of one
 * event are appended one after another, in order. A failing append is logged at error level and
 * never ends the task.
 */
export function createTaskAudit(
  audit: AuditLog,
  taskId: string,
  actor: string,
  logger: Logger,
): TaskAudit {
  const append = ([type, data]: AuditedRow) =>
    appendOrLog(audit, { type, actor, taskId, data }, logger);
  return {
    started: (details) => append(['task-started', details]),
    ended: (details) => append(['task-ended', details]),
    event(event) {
      const rows = auditedRows(event);
      if (rows.length === 0) return undefined;
      return rows.reduce((previous, row) => previous.then(() => append(row)), Promise.resolve());
    },
  };
}

/** The audit rows one loop event makes (none for most). */
function auditedRows(event: LoopEvent): AuditedRow[] {
  if (event.type === 'actions-executed') {
    return event.executed.map(({ planned, result }) => [
      'action-executed',
      {
        step: event.step,
        index: result.index,
        action: auditedAction(planned.action),
        status: result.status,
        ...(result.error ? { error: result.error.code } : {}),
      },
    ]);
  }
  if (event.type === 'step-ended' && (event.refusal || event.outcome === 'refused')) {
    return [
      [
        'step-refused',
        {
          step: event.step,
          kind: event.refusal ?? 'unknown',
          message: event.message === null ? null : capText(event.message, 300),
        },
      ],
    ];
  }
  if (event.type === 'task-stuck') {
    return [
      [
        'task-stuck',
        { step: event.step, idle_ms: event.idleMs, summary: capText(event.summary, 300) },
      ],
    ];
  }
  if (event.type === 'task-ended') {
    const { result } = event;
    return [
      [
        'task-ended',
        { status: result.status, step_count: result.step_count, error: result.error?.code ?? null },
      ],
    ];
  }
  return [];
}

/** The reason recorded for a task a stopped controlplane left running. */
export const INTERRUPTED_REASON = 'the controlplane stopped while this task was running';

/**
 * Audits the end of each task marked INTERRUPTED at start (`failInterrupted`), or ended by a sweep
 * with another `ending` (DISPATCH_FAILED), as its own run would have: `task-ended` with status `error`, the reason, and its actor. Never rejects (logs).
 */
export async function auditInterruptedTasks(
  audit: AuditLog,
  tasks: readonly { id: string; actor: string | null; stepCount: number }[],
  logger: Logger,
  ending: { error: string; reason: string } = { error: 'INTERRUPTED', reason: INTERRUPTED_REASON },
): Promise<void> {
  for (const task of tasks) {
    await createTaskAudit(audit, task.id, task.actor ?? 'system', logger).ended({
      status: 'error',
      step_count: task.stepCount,
      ...ending,
    });
  }
}
