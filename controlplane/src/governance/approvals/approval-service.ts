import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import { AppError, NotFoundError } from '../../errors.js';
import type { ApprovalStore } from '../../platform/store/approval-repository.js';
import type { AuditLog } from '../audit/audit-log.js';
import { capText } from '../audit/bounded-text.js';
import type { ApprovalOutcome, ApprovalRecord, Approver } from './approval-types.js';
import type { Notifier } from './notifier.js';

export type ApprovalAnswer = 'approve' | 'deny';

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
}

export interface ApprovalServiceDeps {
  store: ApprovalStore;
  audit: AuditLog;
  clock: Clock;
  logger: Logger;
  newId: () => string;
}

/**
 * Supervisor approvals: a request is stored, audited and sent to every notifier (failures are
 * logged and audited, never fatal), then waits for an answer from any channel or the timeout,
 * which counts as a denial. Answers are audited with who and when.
 */
export function createApprovalService(deps: ApprovalServiceDeps): ApprovalService {
  const notifiers: Notifier[] = [];
  const waiting = new Map<string, (outcome: ApprovalOutcome) => void>();
  const logger = deps.logger.child({ module: 'approvals' });

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
          async () => {
            await expire(record.id);
            resolve({ approved: false, approvalId: record.id, by: null, why: 'expired' });
          },
          () => undefined,
        );
      });
      // Handled here too, so an abort during `notify` is not an unhandled rejection.
      outcome.catch(() => undefined);
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
      const final = { ...record, status, answeredAt: at, answeredBy: by } as const;
      waiting.get(id)?.(
        answer === 'approve'
          ? { approved: true, approvalId: id, by }
          : { approved: false, approvalId: id, by, why: 'denied' },
      );
      closed(final);
      return final;
    },
    get: (id) => deps.store.get(id),
    list: (query) => deps.store.list(query),
    attach(notifier) {
      notifiers.push(notifier);
    },
  };
}
