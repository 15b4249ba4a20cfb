// Tasks the shared queue will never run: a `queued` row nobody claimed whose job failed its last
// retry, or was archived or deleted unrun (pg-boss retention). Every heartbeat each replica ends
// them `error DISPATCH_FAILED`, audited once and announced, so that no task waits forever and
// its submitter, wherever it is, gets the typed ending.
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { AuditLog } from '../governance/audit/audit-log.js';
import { auditInterruptedTasks } from '../governance/audit/task-audit.js';
import type { NotifyChannel } from '../platform/notify/notify-channel.js';
import type { TaskQueue } from '../platform/store/task-queue.js';
import type { TaskRepository } from '../platform/store/task-repository.js';
import { announceInterrupted } from '../tasks/task-event-follower.js';

/** The code of a task the shared queue gave up on. */
export const DISPATCH_FAILED = 'DISPATCH_FAILED';
export const DISPATCH_FAILED_REASON =
  'no controlplane replica could take this task from the shared queue (its job failed its last retry or expired unrun); submit it again';

/**
 * How old an unclaimed task must be before its missing job counts: its row is written just
 * before its job is sent. Default 20 s (the controlplane passes its replica timeout).
 */
export const defaultDispatchGraceMs = 20_000;

export interface UndispatchedSweepDeps {
  queue: Pick<TaskQueue, 'dispatchable'>;
  repository: Pick<TaskRepository, 'unclaimedQueued' | 'failUnclaimed'>;
  audit: AuditLog;
  clock: Pick<Clock, 'now'>;
  logger: Logger;
  notify?: Pick<NotifyChannel, 'notify'>;
  graceMs?: number | undefined;
}

/**
 * Ends DISPATCH_FAILED the unclaimed `queued` tasks older than the grace that have no job left
 * to run. The status change is the claim (a replica claiming it meanwhile wins, and so does
 * another sweep): only the rows this UPDATE returned are audited and announced here.
 * Resolves to how many tasks it ended.
 */
export async function sweepUndispatched(deps: UndispatchedSweepDeps): Promise<number> {
  const now = deps.clock.now();
  const candidates = await deps.repository.unclaimedQueued(
    now - (deps.graceMs ?? defaultDispatchGraceMs),
  );
  if (candidates.length === 0) return 0;
  const waiting = await deps.queue.dispatchable(candidates);
  const stranded = candidates.filter((id) => !waiting.has(id));
  const ended = await deps.repository.failUnclaimed(stranded, {
    at: now,
    code: DISPATCH_FAILED,
    message: DISPATCH_FAILED_REASON,
  });
  if (ended.length === 0) return 0;
  await auditInterruptedTasks(deps.audit, ended, deps.logger, {
    error: DISPATCH_FAILED,
    reason: DISPATCH_FAILED_REASON,
  });
  if (deps.notify)
    await announceInterrupted(
      deps.notify,
      ended.map((task) => task.id),
    ).catch((error: unknown) =>
      deps.logger.warn({ err: error }, 'undispatched tasks not announced; followers poll'),
    );
  deps.logger.warn(
    { ended: ended.map((task) => task.id) },
    'ended queued tasks no replica will take from the shared queue as DISPATCH_FAILED',
  );
  return ended.length;
}
