// The registry of controlplane processes on PostgreSQL (drizzle + node-postgres).
import { randomUUID } from 'node:crypto';
import { asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { InstanceKind, InstanceRecord, InstanceRepository } from '../instance-repository.js';
import { databaseAgeMs, databaseNowMs } from './pg-clock.js';
import type { PgDb } from './pg-database.js';
import { instances, storeIdentity } from './schema.js';

/** Every column, plus how old the heartbeat is by the database's clock. */
const listed = {
  ...getTableColumns(instances),
  heartbeatAgeMs: databaseAgeMs(instances.heartbeatAt),
};

const toRecord = (
  row: typeof instances.$inferSelect & { heartbeatAgeMs: number | null },
): InstanceRecord => ({
  ...row,
  kind: row.kind as InstanceKind,
  heartbeatAgeMs: row.heartbeatAgeMs ?? 0, // heartbeat_at is NOT NULL
});

/**
 * The `InstanceRepository` on a shared PostgreSQL database. Unlike SQLite it ignores the times
 * the caller passes for a row's start and heartbeat: both are the database's clock, and every
 * listed row carries its heartbeat's age by that clock (`heartbeatAgeMs`).
 */
export function createPgInstanceRepository(db: PgDb): InstanceRepository {
  return {
    registerUnless: (instance, blocker) =>
      db.transaction(async (tx) => {
        // SHARE ROW EXCLUSIVE conflicts with itself and with every write: a second registrant
        // waits here until this one commits, then reads its row (READ COMMITTED re-reads).
        await tx.execute(sql`LOCK TABLE ${instances} IN SHARE ROW EXCLUSIVE MODE`);
        const rows = await tx
          .select(listed)
          .from(instances)
          .orderBy(asc(instances.startedAt), asc(instances.id));
        const found = blocker(rows.map(toRecord));
        if (found) return found;
        const { heartbeatAgeMs: _age, ...row } = instance;
        await tx
          .insert(instances)
          .values({ ...row, startedAt: databaseNowMs, heartbeatAt: databaseNowMs });
        return null;
      }),
    async heartbeat(id) {
      const updated = await db
        .update(instances)
        .set({ heartbeatAt: databaseNowMs })
        .where(eq(instances.id, id))
        .returning({ id: instances.id });
      return updated.length > 0;
    },
    async setUrl(id, url) {
      await db.update(instances).set({ url }).where(eq(instances.id, id));
    },
    async list() {
      const rows = await db
        .select(listed)
        .from(instances)
        .orderBy(asc(instances.startedAt), asc(instances.id));
      return rows.map(toRecord);
    },
    async remove(ids) {
      if (ids.length > 0) await db.delete(instances).where(inArray(instances.id, ids));
    },
    async storeId() {
      await db
        .insert(storeIdentity)
        .values({ singleton: 1, id: randomUUID().replaceAll('-', '') })
        .onConflictDoNothing();
      const [row] = await db.select().from(storeIdentity).where(eq(storeIdentity.singleton, 1));
      if (!row) throw new Error('store_identity has no row after its insert');
      return row.id;
    },
  };
}
