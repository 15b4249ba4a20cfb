// Approval requests on PostgreSQL (drizzle + node-postgres); an answer only lands while pending.
import { and, desc, eq } from 'drizzle-orm';
import type {
  ApprovalRecord,
  ApprovalStatus,
} from '../../../governance/approvals/approval-types.js';
import type { ApprovalStore } from '../approval-repository.js';
import type { PgDb } from './pg-database.js';
import { approvals } from './schema.js';

const toRecord = (row: typeof approvals.$inferSelect): ApprovalRecord => ({
  ...row,
  kind: row.kind as ApprovalRecord['kind'],
  status: row.status as ApprovalStatus,
  detail: JSON.parse(row.detail) as Record<string, unknown>,
});

export function createPgApprovalRepository(db: PgDb): ApprovalStore {
  return {
    async insert(record) {
      await db.insert(approvals).values({ ...record, detail: JSON.stringify(record.detail) });
    },
    async get(id) {
      const [row] = await db.select().from(approvals).where(eq(approvals.id, id));
      return row ? toRecord(row) : null;
    },
    async list({ status, limit }) {
      const rows = await db
        .select()
        .from(approvals)
        .where(status ? eq(approvals.status, status) : undefined)
        .orderBy(desc(approvals.requestedAt))
        .limit(limit);
      return rows.map(toRecord);
    },
    async close(id, status, at, by) {
      const closed = await db
        .update(approvals)
        .set({ status, answeredAt: at, answeredBy: by })
        .where(and(eq(approvals.id, id), eq(approvals.status, 'pending')))
        .returning({ id: approvals.id });
      return closed.length === 1;
    },
  };
}
