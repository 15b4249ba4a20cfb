import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import { AppError, NotFoundError } from '../../errors.js';
import type { NotifyChannel } from '../../platform/notify/notify-channel.js';
import type { ApprovalStore } from '../../platform/store/approval-repository.js';
import type { AuditLog } from '../audit/audit-log.js';
import { capText } from '../audit/bounded-text.js';
import type { ApprovalOutcome, ApprovalRecord, Approver } from './approval-types.js';
import type { Notifier } from './notifier.js';

export type ApprovalAnswer = 'approve' | 'deny';

/** The notify channel an answer is announced on (payload: the approval id). */
export const APPROVALS_CHANNEL = 'clawdie_approvals';

export interface ApprovalService extends Approver {
  /** Answers a pending approval (first answer wins); 404 unknown, 409 already closed. */
  answer(id: string, answer: ApprovalAnswer, by: string): Promise<ApprovalRecord>;
  get(id: string): Promise<ApprovalRecord | null>;
  list(query: {
    status?: ApprovalRecord['status'] | undefined;
    limit: number;
  }): Promise<ApprovalRecord[]>;
  /** Adds a channel requests are sent to (Telegram). */
  attach(notifier: Notifier): void;
  /** Stops listening for answers given on other replicas. */
  close(): Promise<void>;
}

export interface ApprovalServiceDeps {
  store: ApprovalStore;
  audit: AuditLog;
  clock: Clock;
  logger: Logger;
  newId: () => string;
  /**
   * How replicas on one store tell each other an approval was answered: the answering one
   * announces the id, the one whose task waits re-reads the row. Absent: this process only.
   */
  notify?: NotifyChannel | undefined;
}

/** What a closed approval means to the task waiting on it; null while it is pending. */
export function outcomeOf(record: ApprovalRecord): ApprovalOutcome | null {
  const approvalId = record.id;
  if (record.status === 'approved')
    return { approved: true, approvalId, by: record.answeredBy ?? 'unknown' };
  if (record.status === 'pending') return null;
  return { approved: false, approvalId, by: record.answeredBy, why: record.status };
}

/**
 * Supervisor approvals: a request is stored, audited and sent to every notifier (failures are
 * logged and audited, never fatal), then waits for an answer from any channel or the timeout,
 * which counts as a denial. Answers are audited with who and when. With several replicas on one
 * store any of them may answer: the row is closed atomically there and the id announced on
 * `notify`; the replica whose task waits re-reads the row (also after its channel reconnects, and
 * at the timeout), so the task gets the stored answer. Expiry stays with the waiting replica.
 */
export function createApprovalService(deps: ApprovalServiceDeps): ApprovalService {
  const notifiers: Notifier[] = [];
  const waiting = new Map<string, (outcome: ApprovalOutcome) => void>();
  const logger = deps.logger.child({ module: 'approvals' });
  // Listening starts now; a request waits for it, so no answer given elsewhere can slip past.
  const listening: Promise<() => Promise<void>> = deps.notify
    ? deps.notify
        .listen(APPROVALS_CHANNEL, (id) => void settleFromStore(id))
        .catch((error) => {
          logger.error({ err: error }, 'not listening for approvals answered on other replicas');
          return async () => undefined;
        })
    : Promise.resolve(async () => undefined);
  // Announcements sent while the channel was down were missed: re-read every waiting request.
  const stopResumed = deps.notify?.onResumed(() => {
    for (const id of waiting.keys()) void settleFromStore(id);
  });

  /** Resolves the waiter of `id`, if this process has one, with the answer stored (if any). */
  async function settleFromStore(id: string): Promise<void> {
    const resolve = waiting.get(id);
    if (!resolve) return;
    try {
      const record = await deps.store.get(id);
      const outcome = record && outcomeOf(record);
      if (outcome) resolve(outcome);
    } catch (error) {
      logger.warn({ err: error, approvalId: id }, 'could not re-read an answered approval');
    }
  }

  /** The timeout: expires the request, or finds the answer another replica stored meanwhile. */
  async function timedOut(id: string): Promise<ApprovalOutcome> {
    const expired = { approved: false, approvalId: id, by: null, why: 'expired' } as const;
    try {
      await expire(id);
      const record = await deps.store.get(id);
      return (record && outcomeOf(record)) ?? expired;
    } catch (error) {
      logger.error({ err: error, approvalId: id }, 'approval expiry not recorded');
      return expired;
    }
  }

  const closed = (record: ApprovalRecord) => {
    for (const notifier of notifiers) {
      void notifier
        .approvalClosed(record)
        .catch((error: unknown) => logger.warn({ err: error }, 'notifier close failed'));
    }
  };

  async function notify(record: ApprovalRecord, screenshot: Buffer | null) {
    await Promise.all(
      notifiers.map((notifier) =>
        notifier.requestApproval(record, screenshot).catch(async (error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          logger.error(
            { err: error, approvalId: record.id, notifier: notifier.name },
            'approval notification failed',
          );
          await deps.audit.append({
            type: 'notifier-failed',
            actor: 'system',
            taskId: record.taskId,
            data: { approval: record.id, notifier: notifier.name, error: message.slice(0, 300) },
          });
        }),
      ),
    );
  }

  async function expire(id: string) {
    const record = await deps.store.get(id);
    if (!record || !(await deps.store.close(id, 'expired', deps.clock.now(), null))) return;
    await deps.audit.append({
      type: 'approval-expired',
      actor: 'system',
      taskId: record.taskId,
      data: { approval: id },
    });
    closed({ ...record, status: 'expired', answeredAt: deps.clock.now() });
  }

  return {
    async request(request, signal) {
      await listening;
      const now = deps.clock.now();
      const record: ApprovalRecord = {
        id: deps.newId(),
        taskId: request.taskId,
        tenant: request.tenant,
        kind: request.kind,
        reason: request.reason,
        detail: request.detail,
        status: 'pending',
        requestedAt: now,
        expiresAt: now + request.timeoutMs,
        answeredAt: null,
        answeredBy: null,
      };
      await deps.store.insert(record);
      request.onPending?.(record);
      await deps.audit.append({
        type: 'approval-requested',
        actor: 'system',
        taskId: request.taskId,
        data: {
          approval: record.id,
          kind: record.kind,
          reason: capText(record.reason, 300),
          expires_at: record.expiresAt,
        },
      });
      const timer = new AbortController();
      const outcome = new Promise<ApprovalOutcome>((resolve, reject) => {
        waiting.set(record.id, resolve);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        deps.clock.sleep(request.timeoutMs, timer.signal).then(
          async () => resolve(await timedOut(record.id)),
          () => undefined,
        );
      });
      // Handled here too, so an abort during `notify` is not an unhandled rejection.
      outcome.catch(() => undefined);
      // Answered on another replica before this one waited (its announcement then found no waiter).
      if (deps.notify) void settleFromStore(record.id);
      try {
        signal?.throwIfAborted();
        await notify(record, request.screenshot ?? null);
        return await outcome;
      } finally {
        timer.abort();
        waiting.delete(record.id);
        if (signal?.aborted) await expire(record.id);
      }
    },
    async answer(id, answer, by) {
      const record = await deps.store.get(id);
      if (!record) throw new NotFoundError(`no approval ${id}`);
      const status = answer === 'approve' ? 'approved' : 'denied';
      const at = deps.clock.now();
      if (!(await deps.store.close(id, status, at, by))) {
        throw new AppError('APPROVAL_CLOSED', `approval ${id} is already ${record.status}`, {
          status: 409,
        });
      }
      await deps.audit.append({
        type: 'approval-answered',
        actor: by,
        taskId: record.taskId,
        data: { approval: id, answer: status },
      });
      const final: ApprovalRecord = { ...record, status, answeredAt: at, answeredBy: by };
      const outcome = outcomeOf(final);
      if (outcome) waiting.get(id)?.(outcome);
      closed(final);
      // The task may wait on another replica; a lost announcement is read there at its timeout.
      await deps.notify?.notify(APPROVALS_CHANNEL, id).catch((error: unknown) => {
        logger.warn({ err: error, approvalId: id }, 'approval answer not announced to replicas');
      });
      return final;
    },
    get: (id) => deps.store.get(id),
    list: (query) => deps.store.list(query),
    attach(notifier) {
      notifiers.push(notifier);
    },
    async close() {
      stopResumed?.();
      await (await listening)();
    },
  };
}
