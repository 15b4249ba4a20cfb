// The registry of jail hosts on PostgreSQL (drizzle + node-postgres): one row per hostd, its
// sealed token. Same behaviour as ../host-repository.ts (one contract suite runs both).
import { eq } from 'drizzle-orm';
import { AppError } from '../../../errors.js';
import { type HostRepository, hostRecordOf, hostRowOf } from '../host-repository.js';
import type { PgDb } from './pg-database.js';
import { byteOrder } from './pg-order.js';
import { hosts } from './schema.js';

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
      const [row] = await db.select().from(hosts).where(byName(name));
      return row ? hostRecordOf(row) : null;
    },
    async list() {
      const rows = await db.select().from(hosts).orderBy(byteOrder(hosts.name));
      return rows.map(hostRecordOf);
    },
    setState: (name, state) => changed(db.update(hosts).set({ state }).where(byName(name))),
    remove: (name) => changed(db.delete(hosts).where(byName(name))),
    beat(name, beat) {
      const set =
        'error' in beat
          ? { lastError: beat.error }
          : { heartbeatAt: beat.at, clones: beat.clones, lastError: null };
      return changed(db.update(hosts).set(set).where(byName(name)));
    },
  };
}
