// The audit log's storage on PostgreSQL: every append is one transaction that first takes a
// transaction-scoped advisory lock, then reads the tail and inserts, so appenders in any number of
// controlplane processes queue in the database and the chain stays linear (no fork, no gap).
// A connection lost mid-append (a server restart) retries the whole transaction.
// The table refuses UPDATE, DELETE and TRUNCATE (migration 0001_audit_append_only).
import { and, asc, desc, eq, gt, gte, inArray, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { AuditListQuery, AuditStore } from '../../../governance/audit/audit-log.js';
import type { AuditRow } from '../../../governance/audit/hash-chain.js';
import type { PgDb } from './pg-database.js';
import { retryConnectionLoss } from './pg-retry.js';
import { auditEvents, tasks } from './schema.js';

/** The advisory lock key every appender takes (two int4 keys: 'clawdie', 'audit'). */
const APPEND_LOCK = sql`SELECT pg_advisory_xact_lock(hashtext('clawdie'), hashtext('audit'))`;

const tailColumns = { seq: auditEvents.seq, hash: auditEvents.hash };

export function createPgAuditRepository(db: PgDb): AuditStore {
  return {
    async append(build) {
      // A commit whose answer was lost with the connection may have landed: the retry finds the
      // row it sent (by hash) and returns it rather than appending the event twice.
      let sent: AuditRow | null = null;
      return retryConnectionLoss(() =>
        db.transaction(async (tx) => {
          await tx.execute(APPEND_LOCK);
          if (sent) {
            const [landed] = await tx
              .select({ seq: auditEvents.seq })
              .from(auditEvents)
              .where(eq(auditEvents.hash, sent.hash))
              .limit(1);
            if (landed) return sent;
          }
          const [tail] = await tx
            .select(tailColumns)
            .from(auditEvents)
            .orderBy(desc(auditEvents.seq))
            .limit(1);
          const row = build(tail ?? null);
          sent = row;
          await tx.insert(auditEvents).values(row);
          return row;
        }),
      );
    },
    async page(afterSeq, limit) {
      return db
        .select()
        .from(auditEvents)
        .where(gt(auditEvents.seq, afterSeq))
        .orderBy(asc(auditEvents.seq))
        .limit(limit);
    },
    async tail() {
      const [tail] = await db
        .select(tailColumns)
        .from(auditEvents)
        .orderBy(desc(auditEvents.seq))
        .limit(1);
      return tail ?? null;
    },
    async hashAt(seq) {
      const [row] = await db
        .select({ hash: auditEvents.hash })
        .from(auditEvents)
        .where(eq(auditEvents.seq, seq));
      return row?.hash ?? null;
    },
    async seqOfHash(hash) {
      const [row] = await db
        .select({ seq: auditEvents.seq })
        .from(auditEvents)
        .where(eq(auditEvents.hash, hash))
        .limit(1);
      return row?.seq ?? null;
    },
    async list(query) {
      return db
        .select()
        .from(auditEvents)
        .where(whereOf(query))
        .orderBy(query.newestFirst ? desc(auditEvents.seq) : asc(auditEvents.seq))
        .limit(query.limit) as Promise<AuditRow[]>;
    },
  };
}

/** The filter of a list query, every value bound (as the SQLite adapter's `whereOf`). */
function whereOf(query: AuditListQuery): SQL | undefined {
  return and(
    query.afterSeq ? gt(auditEvents.seq, query.afterSeq) : undefined,
    query.beforeSeq === undefined ? undefined : lt(auditEvents.seq, query.beforeSeq),
    query.taskId === undefined ? undefined : eq(auditEvents.taskId, query.taskId),
    query.type === undefined ? undefined : eq(auditEvents.type, query.type),
    query.since === undefined ? undefined : gte(auditEvents.at, query.since),
    query.until === undefined ? undefined : lte(auditEvents.at, query.until),
    query.tenant === undefined
      ? undefined
      : or(
          // The actor names the tenant (`tenant:<t>/…`), or the row is about one of its tasks.
          sql`starts_with(${auditEvents.actor}, ${`tenant:${query.tenant}/`})`,
          inArray(
            auditEvents.taskId,
            sql`(SELECT ${tasks.id} FROM ${tasks} WHERE ${tasks.tenant} = ${query.tenant})`,
          ),
        ),
  );
}
