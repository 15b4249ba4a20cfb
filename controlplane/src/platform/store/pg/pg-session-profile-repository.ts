// Session profiles on PostgreSQL (drizzle + node-postgres): metadata in the clear, bundle sealed.
import { and, eq, isNull, lte, ne } from 'drizzle-orm';
import type { SealedSecret } from '../secret-repository.js';
import type { SessionProfileMeta, SessionProfileStore } from '../session-profile-repository.js';
import type { PgDb } from './pg-database.js';
import { byteOrder } from './pg-order.js';
import { sessionProfiles } from './schema.js';

const WIPED = { ciphertext: '', iv: '', tag: '' };

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

export function createPgSessionProfileRepository(db: PgDb): SessionProfileStore {
  const where = (tenant: string, name: string) =>
    and(eq(sessionProfiles.tenant, tenant), eq(sessionProfiles.name, name));
  return {
    async put(meta, sealed) {
      const values = { ...meta, origins: JSON.stringify(meta.origins), ...sealed };
      await db
        .insert(sessionProfiles)
        .values(values)
        .onConflictDoUpdate({
          target: [sessionProfiles.tenant, sessionProfiles.name],
          set: values,
        });
    },
    async meta(tenant, name) {
      const [row] = await db.select().from(sessionProfiles).where(where(tenant, name));
      return row ? toMeta(row) : null;
    },
    async sealed(tenant, name): Promise<SealedSecret | null> {
      const [row] = await db
        .select({
          ciphertext: sessionProfiles.ciphertext,
          iv: sessionProfiles.iv,
          tag: sessionProfiles.tag,
        })
        .from(sessionProfiles)
        .where(where(tenant, name));
      return row && row.ciphertext !== '' ? row : null;
    },
    async list(tenant) {
      const query = db.select().from(sessionProfiles);
      const rows = tenant
        ? await query
            .where(eq(sessionProfiles.tenant, tenant))
            .orderBy(byteOrder(sessionProfiles.name))
        : await query.orderBy(byteOrder(sessionProfiles.tenant), byteOrder(sessionProfiles.name));
      return rows.map(toMeta);
    },
    async revoke(tenant, name, at) {
      const revoked = await db
        .update(sessionProfiles)
        .set({ revokedAt: at, ...WIPED })
        .where(and(where(tenant, name), isNull(sessionProfiles.revokedAt)))
        .returning({ name: sessionProfiles.name });
      return revoked.length > 0;
    },
    async expiredBefore(at) {
      const rows = await db
        .select()
        .from(sessionProfiles)
        .where(and(lte(sessionProfiles.expiresAt, at), ne(sessionProfiles.ciphertext, '')));
      return rows.map(toMeta);
    },
    async wipe(tenant, name) {
      await db.update(sessionProfiles).set(WIPED).where(where(tenant, name));
    },
  };
}
