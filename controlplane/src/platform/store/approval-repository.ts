// Approval requests on drizzle + better-sqlite3; an answer only lands while the row is pending.
import { and, desc, eq } from 'drizzle-orm';
import type { ApprovalRecord, ApprovalStatus } from '../../governance/approvals/approval-types.js';
import type { Db } from './database.js';
import { approvals } from './schema.js';

/** The store port for approval rows; Promises, so that an asynchronous store can implement it. */
export interface ApprovalStore {
  insert(record: ApprovalRecord): Promise<void>;
  get(id: string): Promise<ApprovalRecord | null>;
  list(query: { status?: ApprovalStatus | undefined; limit: number }): Promise<ApprovalRecord[]>;
  /** Sets the final status if the row is still pending; false when it was not. */
  close(
    id: string,
    status: Exclude<ApprovalStatus, 'pending'>,
    at: number,
    by: string | null,
  ): Promise<boolean>;
}

const toRecord = (row: typeof approvals.$inferSelect): ApprovalRecord => ({
  ...row,
  kind: row.kind as ApprovalRecord['kind'],
  status: row.status as ApprovalStatus,
  detail: JSON.parse(row.detail) as Record<string, unknown>,
});

export function createApprovalRepository(db: Db): ApprovalStore {
  return {
    async insert(record) {
      db.insert(approvals)
        .values({ ...record, detail: JSON.stringify(record.detail) })
        .run();
    },
    async get(id) {
      const row = db.select().from(approvals).where(eq(approvals.id, id)).get();
      return row ? toRecord(row) : null;
    },
    async list({ status, limit }) {
      return db
        .select()
        .from(approvals)
        .where(status ? eq(approvals.status, status) : undefined)
        .orderBy(desc(approvals.requestedAt))
        .limit(limit)
        .all()
        .map(toRecord);
    },
    async close(id, status, at, by) {
      const result = db
        .update(approvals)
        .set({ status, answeredAt: at, answeredBy: by })
        .where(and(eq(approvals.id, id), eq(approvals.status, 'pending')))
        .run();
      return result.changes === 1;
    },
  };
}
