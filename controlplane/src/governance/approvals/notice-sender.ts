import type { Logger } from 'pino';
import { appendOrLog } from '../audit/append-or-log.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { Notifier, SupervisorNotice } from './notifier.js';

/** Sends a notice to every channel; never rejects. */
export type NoticeSender = (notice: SupervisorNotice) => Promise<void>;

export interface NoticeSenderDeps {
  notifiers: readonly Notifier[];
  audit: AuditLog;
  logger: Logger;
}

/**
 * Fans a notice out to every notifier that takes notices. A failing channel is logged and
 * audited as `notifier-failed` (`what: 'notice'`); the returned promise always resolves, so a
 * task never sees an unreachable Telegram.
 */
export function createNoticeSender(deps: NoticeSenderDeps): NoticeSender {
  const logger = deps.logger.child({ module: 'notices' });
  return async function sendNotice(notice) {
    await Promise.all(
      deps.notifiers.map(async (notifier) => {
        if (!notifier.notify) return;
        try {
          await notifier.notify(notice);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          logger.error(
            { err: error, taskId: notice.taskId, notifier: notifier.name, kind: notice.kind },
            'supervisor notice failed',
          );
          const data = {
            notifier: notifier.name,
            what: 'notice',
            notice: notice.kind,
            error: message.slice(0, 300),
          };
          const { taskId } = notice;
          await appendOrLog(
            deps.audit,
            { type: 'notifier-failed', actor: 'system', taskId, data },
            logger,
          );
        }
      }),
    );
  };
}
