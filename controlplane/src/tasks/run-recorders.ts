// The recorders of a task run's events, in order: the trace (it writes the row first), the
// network evidence, the audit, the numbered SSE event log.
import type { Logger } from 'pino';
import { discardAuditLog } from '../governance/audit/audit-log.js';
import { createTaskAudit } from '../governance/audit/task-audit.js';
import type { RunRecorder } from './run-stream.js';
import type { SerialWrites } from './serial-writes.js';
import type { TaskRunDeps } from './task-deps.js';
import { recordToEventLog, type TaskEventSink } from './task-events.js';
import type { TaskPlan } from './task-plan.js';
import { startedDetails } from './task-start.js';
import type { EvidenceLedger } from './task-verification.js';
import type { TraceRecorder } from './trace-recorder.js';

export function runRecorders(run: {
  id: string;
  plan: TaskPlan;
  deps: TaskRunDeps;
  logger: Logger;
  trace: TraceRecorder;
  writes: SerialWrites;
  evidence: EvidenceLedger;
  maxSteps: number;
  /** Events of the task stored before this run (an adopted task's `queued`): numbered after them. */
  storedEvents: number;
}): RunRecorder[] {
  const { input, actor } = run.plan;
  const audit = createTaskAudit(run.deps.audit ?? discardAuditLog, run.id, actor, run.logger);
  return [
    run.trace.record,
    run.evidence.record,
    (event) =>
      event.type === 'task-started'
        ? audit.started({ ...startedDetails(input, run.maxSteps), model: event.model ?? null })
        : audit.event(event),
    recordToEventLog(run.id, run.maxSteps, eventSink(run)),
  ];
}

/**
 * Each event into the process's log (numbered there for local readers), then into the store
 * through the task's write queue, numbered 1, 2, … in the order of the events; the recorder
 * waits until it is stored (a failure is logged: the stream goes on).
 */
function eventSink(run: {
  id: string;
  deps: TaskRunDeps;
  writes: SerialWrites;
  storedEvents: number;
}): TaskEventSink {
  const { events, feed, clock } = run.deps;
  let seq = run.storedEvents;
  return (event) => {
    events.append(run.id, event);
    const numbered = ++seq;
    const at = clock.now();
    return run.writes.queue(
      () => feed.append(run.id, numbered, event, at),
      'task event not stored',
    );
  };
}
