import type { Logger } from 'pino';
import type { AuditEvent, AuditLog } from './audit-log.js';

/**
 * Appends `event` for a caller whose work goes on whatever the audit store does (a task's run, an
 * event handler, a refusal already made): resolves once the row is committed, or logs the failure
 * at error level and resolves. Never rejects, so a caller that cannot wait may `void` it.
 */
export async function appendOrLog(
  audit: AuditLog,
  event: AuditEvent,
  logger: Pick<Logger, 'error'>,
): Promise<void> {
  try {
    await audit.append(event);
  } catch (error) {
    logger.error({ err: error, auditType: event.type }, 'audit append failed');
  }
}
