// The registry of jail hosts on drizzle + better-sqlite3: one row per hostd, its sealed token.
import { eq } from 'drizzle-orm';
import { AppError } from '../../errors.js';
import type { Db } from './database.js';
import { hosts } from './schema.js';
import type { SealedSecret } from './secret-repository.js';

export type HostState = 'active' | 'draining';

export interface HostRecord {
  name: string;
  url: string;
  labels: Record<string, string>;
  capacity: number;
  state: HostState;
  token: SealedSecret;
  addedAt: number;
  heartbeatAt: number | null;
  /**
   * How long ago `heartbeatAt` was by the store's own clock (null: never), on a shared store
   * (PostgreSQL), so that replicas whose clocks disagree judge a host's health alike; absent on
   * SQLite, which one controlplane's host reads and writes (see `healthOf`).
   */
  heartbeatAgeMs?: number | null;
  clones: number;
  lastError: string | null;
}

/**
 * One heartbeat attempt: the clones the host reported, or why it could not be reached. `at` is the
 * caller's clock; a store with a clock of its own (PostgreSQL) records its time instead.
 */
export type HostBeat = { at: number; clones: number } | { at: number; error: string };

/**
 * The store port for hosts. Every method is atomic and returns a Promise (so that an
 * asynchronous store can implement it). `add` refuses a name already taken (HOST_EXISTS);
 * `setState`, `remove` and `beat` return false when there is no such host.
 */
export interface HostRepository {
  add(host: Omit<HostRecord, 'heartbeatAt' | 'clones' | 'lastError'>): Promise<void>;
  get(name: string): Promise<HostRecord | null>;
  list(): Promise<HostRecord[]>;
  setState(name: string, state: HostState): Promise<boolean>;
  remove(name: string): Promise<boolean>;
  beat(name: string, beat: HostBeat): Promise<boolean>;
}

type Row = typeof hosts.$inferSelect;

/** A host row as a record (both stores' rows have this shape). */
export const hostRecordOf = (row: Row): HostRecord => ({
  name: row.name,
  url: row.url,
  labels: JSON.parse(row.labels) as Record<string, string>,
  capacity: row.capacity,
  state: row.state as HostState,
  token: { ciphertext: row.tokenCiphertext, iv: row.tokenIv, tag: row.tokenTag },
  addedAt: row.addedAt,
  heartbeatAt: row.heartbeatAt,
  clones: row.clones,
  lastError: row.lastError,
});

/** A new host as a row (both stores' rows have this shape). */
export const hostRowOf = (host: Parameters<HostRepository['add']>[0]) => ({
  name: host.name,
  url: host.url,
  labels: JSON.stringify(host.labels),
  capacity: host.capacity,
  state: host.state,
  tokenCiphertext: host.token.ciphertext,
  tokenIv: host.token.iv,
  tokenTag: host.token.tag,
  addedAt: host.addedAt,
});

export function createHostRepository(db: Db): HostRepository {
  const byName = (name: string) => eq(hosts.name, name);
  return {
    async add(host) {
      const inserted = db.insert(hosts).values(hostRowOf(host)).onConflictDoNothing().run();
      if (inserted.changes === 0)
        throw new AppError('HOST_EXISTS', `a host named ${host.name} is already registered`);
    },
    async get(name) {
      const row = db.select().from(hosts).where(byName(name)).get();
      return row ? hostRecordOf(row) : null;
    },
    list: async () => db.select().from(hosts).orderBy(hosts.name).all().map(hostRecordOf),
    async setState(name, state) {
      return db.update(hosts).set({ state }).where(byName(name)).run().changes > 0;
    },
    async remove(name) {
      return db.delete(hosts).where(byName(name)).run().changes > 0;
    },
    async beat(name, beat) {
      const set =
        'error' in beat
          ? { lastError: beat.error }
          : { heartbeatAt: beat.at, clones: beat.clones, lastError: null };
      return db.update(hosts).set(set).where(byName(name)).run().changes > 0;
    },
  };
}
