import { systemClock } from '../../clock.js';
import { openAuditTrail } from '../../governance/audit/open-audit-trail.js';
import type { AuditVerifyResult } from '../../governance/audit/verify-chain.js';
import { createAuditRepository } from '../store/audit-repository.js';
import { openDatabaseReadOnly } from '../store/database.js';

/**
 * `clawdie audit verify` of a database file with its key (the head record next to the key), read
 * only. A missing key rejects with AppError `AUDIT_KEY_MISSING`.
 */
export async function verifyAuditAt(
  databasePath: string,
  keyFile: string,
): Promise<AuditVerifyResult> {
  const database = openDatabaseReadOnly(databasePath);
  try {
    const trail = await openAuditTrail(createAuditRepository(database.db), {
      keyFile,
      clock: systemClock,
      mode: 'verify',
    });
    return await trail.verify();
  } finally {
    database.close();
  }
}

/** One line for the admin: intact with the head, or the first bad row. */
export function describeAudit(result: AuditVerifyResult): string {
  return result.ok
    ? `audit log intact: ${result.rows} rows, head seq ${result.headSeq}`
    : `audit log NOT intact: first bad row ${result.firstBad.seq} (${result.firstBad.problem}): ${result.firstBad.message}`;
}
