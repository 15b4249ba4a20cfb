// The registry of controlplane processes using one database (drizzle + better-sqlite3).
import { randomUUID } from 'node:crypto';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from './database.js';
import { instances, storeIdentity } from './schema.js';

export type InstanceKind = 'server' | 'cli' | 'mcp' | 'embedded';

export interface InstanceRecord {
  id: string;
  kind: InstanceKind;
  pid: number;
  hostname: string;
  url: string | null;
  startedAt: number;
  heartbeatAt: number;
  /**
   * How long ago the heartbeat was written, by the store's own clock: set on the rows a shared
   * store lists (PostgreSQL's `clock_timestamp()`), so that replicas on machines whose clocks
   * disagree judge liveness by one clock. Absent on SQLite, whose rows are written and read on
   * one host (see `isInstanceLive`).
   */
  heartbeatAgeMs?: number;
}

/**
 * The store port for instance rows. Every method is atomic; each returns a Promise so that an
 * asynchronous store (PostgreSQL) can implement it.
 */
export interface InstanceRepository {
  /**
   * In one transaction that excludes other registrants (SQLite `BEGIN IMMEDIATE`, PostgreSQL a
   * table lock), so two starting processes cannot both pass:
   * calls `blocker` with every registered row; when it returns a row, inserts nothing and
   * returns that row, else inserts `instance` and returns null.
   */
  registerUnless(
    instance: InstanceRecord,
    blocker: (rows: InstanceRecord[]) => InstanceRecord | null,
  ): Promise<InstanceRecord | null>;
  /**
   * Refreshes the heartbeat; false when the row is gone (another process judged it dead). `at` is
   * this process's clock; a store with a clock of its own (PostgreSQL) writes that instead, and
   * also for `startedAt` and `heartbeatAt` in `registerUnless`.
   */
  heartbeat(id: string, at: number): Promise<boolean>;
  setUrl(id: string, url: string): Promise<void>;
  /** Oldest first (by start, then id). */
  list(): Promise<InstanceRecord[]>;
  remove(ids: string[]): Promise<void>;
  /**
   * This store's identity: a random id made the first time any process asks (two asking at once
   * get the same one), the same for every process on the store until a backup or restore drops
   * it from a copy. Instances name it with their id on hostd leases (`lease-holder.ts`).
   */
  storeId(): Promise<string>;
}

export function createInstanceRepository(db: Db): InstanceRepository {
  const toRecord = (row: typeof instances.$inferSelect): InstanceRecord => ({
    ...row,
    kind: row.kind as InstanceKind,
  });
  const listNow = () =>
    db
      .select()
      .from(instances)
      .orderBy(asc(instances.startedAt), asc(instances.id))
      .all()
      .map(toRecord);
  const register = db.$client.transaction(
    (
      instance: InstanceRecord,
      blocker: (rows: InstanceRecord[]) => InstanceRecord | null,
    ): InstanceRecord | null => {
      const found = blocker(listNow());
      if (found) return found;
      db.insert(instances).values(instance).run();
      return null;
    },
  );
  return {
    registerUnless: async (instance, blocker) => register.immediate(instance, blocker),
    async heartbeat(id, at) {
      const result = db
        .update(instances)
        .set({ heartbeatAt: at })
        .where(eq(instances.id, id))
        .run();
      return result.changes > 0;
    },
    async setUrl(id, url) {
      db.update(instances).set({ url }).where(eq(instances.id, id)).run();
    },
    list: async () => listNow(),
    async remove(ids) {
      if (ids.length > 0) db.delete(instances).where(inArray(instances.id, ids)).run();
    },
    async storeId() {
      db.insert(storeIdentity)
        .values({ singleton: 1, id: randomUUID().replaceAll('-', '') })
        .onConflictDoNothing()
        .run();
      const row = db.select().from(storeIdentity).where(eq(storeIdentity.singleton, 1)).get();
      if (!row) throw new Error('store_identity has no row after its insert');
      return row.id;
    },
  };
}
