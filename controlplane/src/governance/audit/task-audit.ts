import type { Logger } from 'pino';
import type { LoopEvent } from '../../agent/loop/loop-types.js';
import type { AuditEvent, AuditLog } from './audit-log.js';
import { auditedAction, capText } from './bounded-text.js';

/** Records the audit-worthy parts of one task's run. Every method must not throw (it logs instead). */
export interface TaskAudit {
  started(details: Record<string, unknown>): void;
  event(event: LoopEvent): void;
  ended(details: Record<string, unknown>): void;
}

/**
 * Maps a task run's events onto audit rows for one task: each executed action (typed text as
 * length and digest only), each refused step with its kind (`step-refused`: navigation, host rule,
 * credential field, reply limit, approval denied or expired, landing changed, …), each task-stuck
 * report, and the task's end (`task-ended`); its start is `started(details)`. A failing append is
 * logged at error level and never ends the task.
 */
export function createTaskAudit(
  audit: AuditLog,
  taskId: string,
  actor: string,
  logger: Logger,
): TaskAudit {
  const append = (type: AuditEvent['type'], data: Record<string, unknown>) => {
    try {
      audit.append({ type, actor, taskId, data });
    } catch (error) {
      logger.error({ err: error, auditType: type }, 'audit append failed');
    }
  };
  return {
    started: (details) => append('task-started', details),
    ended: (details) => append('task-ended', details),
    event(event) {
      if (event.type === 'actions-executed') {
        for (const { planned, result } of event.executed) {
          append('action-executed', {
            step: event.step,
            index: result.index,
            action: auditedAction(planned.action),
            status: result.status,
            ...(result.error ? { error: result.error.code } : {}),
          });
        }
      } else if (event.type === 'step-ended' && (event.refusal || event.outcome === 'refused')) {
        append('step-refused', {
          step: event.step,
          kind: event.refusal ?? 'unknown',
          message: event.message === null ? null : capText(event.message, 300),
        });
      } else if (event.type === 'task-stuck') {
        append('task-stuck', {
          step: event.step,
          idle_ms: event.idleMs,
          summary: capText(event.summary, 300),
        });
      } else if (event.type === 'task-ended') {
        const { result } = event;
        append('task-ended', {
          status: result.status,
          step_count: result.step_count,
          error: result.error?.code ?? null,
        });
      }
    },
  };
}

/** The reason recorded for a task a stopped controlplane left running. */
export const INTERRUPTED_REASON = 'the controlplane stopped while this task was running';

/**
 * Audits the end of each task marked INTERRUPTED at start (`failInterrupted`), as its own run
 * would have: `task-ended` with status `error`, the reason, and its actor. Must not throw (logs).
 */
export function auditInterruptedTasks(
  audit: AuditLog,
  tasks: readonly { id: string; actor: string | null; stepCount: number }[],
  logger: Logger,
): void {
  for (const task of tasks) {
    createTaskAudit(audit, task.id, task.actor ?? 'system', logger).ended({
      status: 'error',
      step_count: task.stepCount,
      error: 'INTERRUPTED',
      reason: INTERRUPTED_REASON,
    });
  }
}
