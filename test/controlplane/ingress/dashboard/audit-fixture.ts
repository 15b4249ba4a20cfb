import {
  type AuditTrail,
  createAuditLog,
} from '../../../../controlplane/src/governance/audit/audit-log.js';
import { createAuditRepository } from '../../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import { createManualClock } from '../../../support/manual-clock.js';

/** An audit trail on its own SQLite database, with `rows` events and a way to tamper with it. */
export async function createTestAuditTrail(rows: number, taskId = 'task-a') {
  const database = openDatabase(':memory:');
  const audit: AuditTrail = createAuditLog(createAuditRepository(database.db), createManualClock());
  for (let i = 1; i <= rows; i++) {
    await audit.append({
      type: i % 2 ? 'action-executed' : 'policy-decided',
      actor: 'system',
      taskId: i % 3 === 0 ? taskId : null,
      data: { i },
    });
  }
  return {
    audit,
    /** Drops the append-only triggers and rewrites one row's data, as an attacker could. */
    tamper(seq: number) {
      const sqlite = database.db.$client;
      sqlite.exec('DROP TRIGGER IF EXISTS audit_events_no_update');
      sqlite.prepare(`UPDATE audit_events SET data = '{"i":-1}' WHERE seq = ?`).run(seq);
    },
    close: database.close,
  };
}
