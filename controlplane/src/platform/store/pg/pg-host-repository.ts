// The registry of jail hosts on PostgreSQL (drizzle + node-postgres): one row per hostd, its
// sealed token. Same behaviour as ../host-repository.ts (one contract suite runs both).
import { eq, getTableColumns } from 'drizzle-orm';
import { AppError } from '../../../errors.js';
import { type HostRepository, hostRecordOf, hostRowOf } from '../host-repository.js';
import { databaseAgeMs, databaseNowMs } from './pg-clock.js';
import type { PgDb } from './pg-database.js';
import { byteOrder } from './pg-order.js';
import { hosts } from './schema.js';

/** Every column, plus the last good heartbeat's age by the database's clock. */
const listed = { ...getTableColumns(hosts), heartbeatAgeMs: databaseAgeMs(hosts.heartbeatAt) };
const toRecord = (row: typeof hosts.$inferSelect & { heartbeatAgeMs: number | null }) => ({
  ...hostRecordOf(row),
  heartbeatAgeMs: row.heartbeatAgeMs,
});

/**
 * The `HostRepository` on a shared PostgreSQL database. A good beat records the database's time,
 * not the caller's `at`, and every row read carries its heartbeat's age by that clock
 * (`heartbeatAgeMs`): replicas whose clocks disagree see one health for each host.
 */
export function createPgHostRepository(db: PgDb): HostRepository {
  const byName = (name: string) => eq(hosts.name, name);
  const changed = async (query: Promise<{ rowCount: number | null }>) =>
    ((await query).rowCount ?? 0) > 0;
  return {
    async add(host) {
      const inserted = await db
        .insert(hosts)
        .values(hostRowOf(host))
        .onConflictDoNothing()
        .returning({ name: hosts.name });
      if (inserted.length === 0)
        throw new AppError('HOST_EXISTS', `a host named ${host.name} is already registered`);
    },
    async get(name) {
      const [row] = await db.select(listed).from(hosts).where(byName(name));
      return row ? toRecord(row) : null;
    },
    async list() {
      const rows = await db.select(listed).from(hosts).orderBy(byteOrder(hosts.name));
      return rows.map(toRecord);
    },
    setState: (name, state) => changed(db.update(hosts).set({ state }).where(byName(name))),
    remove: (name) => changed(db.delete(hosts).where(byName(name))),
    beat(name, beat) {
      const set =
        'error' in beat
          ? { lastError: beat.error }
          : { heartbeatAt: databaseNowMs, clones: beat.clones, lastError: null };
      return changed(db.update(hosts).set(set).where(byName(name)));
    },
  };
}
