// The tasks of controlplanes that are gone end INTERRUPTED: once at start (every backend), and on
// PostgreSQL at every heartbeat of every replica, so a replica that died mid-task has its tasks
// ended within its timeout plus one heartbeat.
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { AuditLog } from '../governance/audit/audit-log.js';
import { auditInterruptedTasks } from '../governance/audit/task-audit.js';
import type { NotifyChannel } from '../platform/notify/notify-channel.js';
import { type DataDirOwner, defaultHeartbeatMs } from '../platform/ownership/data-dir-owner.js';
import type { TaskRepository } from '../platform/store/task-repository.js';
import { announceInterrupted } from '../tasks/task-event-follower.js';

export interface SweepDeps {
  owner: Pick<DataDirOwner, 'pruneGone'>;
  repository: Pick<TaskRepository, 'failInterrupted'>;
  audit: AuditLog;
  clock: Pick<Clock, 'now'>;
  logger: Logger;
  /** Where the followers of the ended tasks hear of it (every replica's, on PostgreSQL). */
  notify?: Pick<NotifyChannel, 'notify'>;
}

/**
 * Prunes the instances that stopped beating and ends their unended tasks INTERRUPTED, auditing
 * each. The status change is the claim: two replicas sweeping at once both run the UPDATE, the
 * database lets one change each row, and only the rows this UPDATE returned are audited here
 * (and announced to their followers, which then deliver the typed ending at once).
 * Resolves to how many tasks it ended.
 */
export async function sweepGoneOwners(deps: SweepDeps): Promise<number> {
  const live = await deps.owner.pruneGone();
  const interrupted = await deps.repository.failInterrupted(deps.clock.now(), live);
  await auditInterruptedTasks(deps.audit, interrupted, deps.logger);
  if (interrupted.length === 0) return 0;
  if (deps.notify)
    await announceInterrupted(
      deps.notify,
      interrupted.map((task) => task.id),
    ).catch((error: unknown) =>
      deps.logger.warn({ err: error }, 'interrupted tasks not announced; followers poll'),
    );
  deps.logger.warn(
    { interrupted: interrupted.map((task) => task.id) },
    'marked tasks of controlplanes that are gone as INTERRUPTED',
  );
  return interrupted.length;
}

/**
 * Runs `sweepGoneOwners` every `everyMs`, one at a time (failures logged); the returned stop
 * resolves once a sweep in flight has finished, so the store can close after it.
 */
export function startReplicaSweep(
  deps: SweepDeps,
  everyMs = defaultHeartbeatMs,
): () => Promise<void> {
  return repeatSweep(
    () => sweepGoneOwners(deps),
    everyMs,
    deps.logger,
    'the tasks of gone replicas',
  );
}

/**
 * Runs `sweep` every `everyMs`, one at a time (failures logged as sweeping `what`); the returned
 * stop resolves once a sweep in flight has finished.
 */
export function repeatSweep(
  sweep: () => Promise<unknown>,
  everyMs: number,
  logger: Logger,
  what: string,
): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    running ??= sweep()
      .catch((error: unknown) => logger.warn({ err: error }, `sweeping ${what} failed`))
      .finally(() => {
        running = null;
      });
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
