import type { Logger } from 'pino';
import { AuditWriteError } from '../../errors.js';
import type { AuditEvent, AuditLog, AuditRecord } from './audit-log.js';

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

/**
 * Appends `event` for a caller that must not go on unrecorded (a security decision about to take
 * effect): resolves to the committed row, or rejects with `AuditWriteError` (AUDIT_WRITE_FAILED,
 * the store's error as its cause). The caller then does not do what the row records.
 */
export async function appendOrFail(audit: AuditLog, event: AuditEvent): Promise<AuditRecord> {
  try {
    return await audit.append(event);
  } catch (error) {
    throw new AuditWriteError(event.type, error);
  }
}
