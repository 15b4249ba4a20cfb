// The recorders of a task run's events, in order: the trace (it writes the row first), the
// network evidence, the audit, the numbered SSE event log.
import type { Logger } from 'pino';
import { discardAuditLog } from '../governance/audit/audit-log.js';
import { createTaskAudit } from '../governance/audit/task-audit.js';
import type { RunRecorder } from './run-stream.js';
import type { TaskRunDeps } from './task-deps.js';
import { recordToEventLog } from './task-events.js';
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
  evidence: EvidenceLedger;
  maxSteps: number;
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
    recordToEventLog(run.id, run.maxSteps, run.deps.events),
  ];
}
