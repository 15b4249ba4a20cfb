// The registry of controlplane processes on PostgreSQL (drizzle + node-postgres).
import { randomUUID } from 'node:crypto';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { InstanceKind, InstanceRecord, InstanceRepository } from '../instance-repository.js';
import type { PgDb } from './pg-database.js';
import { instances, storeIdentity } from './schema.js';

const toRecord = (row: typeof instances.$inferSelect): InstanceRecord => ({
  ...row,
  kind: row.kind as InstanceKind,
});

export function createPgInstanceRepository(db: PgDb): InstanceRepository {
  return {
    registerUnless: (instance, blocker) =>
      db.transaction(async (tx) => {
        // SHARE ROW EXCLUSIVE conflicts with itself and with every write: a second registrant
        // waits here until this one commits, then reads its row (READ COMMITTED re-reads).
        await tx.execute(sql`LOCK TABLE ${instances} IN SHARE ROW EXCLUSIVE MODE`);
        const rows = await tx
          .select()
          .from(instances)
          .orderBy(asc(instances.startedAt), asc(instances.id));
        const found = blocker(rows.map(toRecord));
        if (found) return found;
        await tx.insert(instances).values(instance);
        return null;
      }),
    async heartbeat(id, at) {
      const updated = await db
        .update(instances)
        .set({ heartbeatAt: at })
        .where(eq(instances.id, id))
        .returning({ id: instances.id });
      return updated.length > 0;
    },
    async setUrl(id, url) {
      await db.update(instances).set({ url }).where(eq(instances.id, id));
    },
    async list() {
      const rows = await db
        .select()
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
