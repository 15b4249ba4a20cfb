// Session profiles on drizzle + better-sqlite3: metadata in the clear, the bundle sealed.
import { and, asc, eq, isNull, lte } from 'drizzle-orm';
import type { Db } from './database.js';
import { sessionProfiles } from './schema.js';
import type { SealedSecret } from './secret-repository.js';

/** A profile without its values. */
export interface SessionProfileMeta {
  tenant: string;
  name: string;
  origins: string[];
  cookieCount: number;
  sourceTask: string | null;
  createdBy: string;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

/** The store port for session profiles; Promises, so that an asynchronous store can implement it. */
export interface SessionProfileStore {
  /** Inserts, or replaces the profile of the same tenant and name. */
  put(meta: SessionProfileMeta, sealed: SealedSecret): Promise<void>;
  meta(tenant: string, name: string): Promise<SessionProfileMeta | null>;
  sealed(tenant: string, name: string): Promise<SealedSecret | null>;
  /** Every profile of `tenant`, or of every tenant when undefined; by name. */
  list(tenant: string | undefined): Promise<SessionProfileMeta[]>;
  /** Sets revoked_at and drops the sealed bundle; false when there is no such live profile. */
  revoke(tenant: string, name: string, at: number): Promise<boolean>;
  /** Profiles past expires_at that still hold a bundle (not yet swept). */
  expiredBefore(at: number): Promise<SessionProfileMeta[]>;
  /** Drops the sealed bundle (the row stays as the record). */
  wipe(tenant: string, name: string): Promise<void>;
}

const WIPED = { ciphertext: '', iv: '', tag: '' };

export function createSessionProfileRepository(db: Db): SessionProfileStore {
  const where = (tenant: string, name: string) =>
    and(eq(sessionProfiles.tenant, tenant), eq(sessionProfiles.name, name));
  const toMeta = (row: typeof sessionProfiles.$inferSelect): SessionProfileMeta => ({
    tenant: row.tenant,
    name: row.name,
    origins: JSON.parse(row.origins) as string[],
    cookieCount: row.cookieCount,
    sourceTask: row.sourceTask,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
  });
  return {
    async put(meta, sealed) {
      const values = { ...meta, origins: JSON.stringify(meta.origins), ...sealed };
      db.insert(sessionProfiles)
        .values(values)
        .onConflictDoUpdate({ target: [sessionProfiles.tenant, sessionProfiles.name], set: values })
        .run();
    },
    async meta(tenant, name) {
      const row = db.select().from(sessionProfiles).where(where(tenant, name)).get();
      return row ? toMeta(row) : null;
    },
    async sealed(tenant, name) {
      const row = db
        .select({
          ciphertext: sessionProfiles.ciphertext,
          iv: sessionProfiles.iv,
          tag: sessionProfiles.tag,
        })
        .from(sessionProfiles)
        .where(where(tenant, name))
        .get();
      return row && row.ciphertext !== '' ? row : null;
    },
    async list(tenant) {
      const query = db.select().from(sessionProfiles);
      const rows = tenant
        ? query.where(eq(sessionProfiles.tenant, tenant)).orderBy(asc(sessionProfiles.name)).all()
        : query.orderBy(asc(sessionProfiles.tenant), asc(sessionProfiles.name)).all();
      return rows.map(toMeta);
    },
    async revoke(tenant, name, at) {
      const result = db
        .update(sessionProfiles)
        .set({ revokedAt: at, ...WIPED })
        .where(and(where(tenant, name), isNull(sessionProfiles.revokedAt)))
        .run();
      return result.changes > 0;
    },
    async expiredBefore(at) {
      return db
        .select()
        .from(sessionProfiles)
        .where(lte(sessionProfiles.expiresAt, at))
        .all()
        .filter((row) => row.ciphertext !== '')
        .map(toMeta);
    },
    async wipe(tenant, name) {
      db.update(sessionProfiles).set(WIPED).where(where(tenant, name)).run();
    },
  };
}
