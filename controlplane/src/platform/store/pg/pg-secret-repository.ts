// Encrypted secrets on PostgreSQL (drizzle + node-postgres). Only ciphertext, IV and tag are stored.
import { and, eq } from 'drizzle-orm';
import type { SecretStore } from '../secret-repository.js';
import type { PgDb } from './pg-database.js';
import { byteOrder } from './pg-order.js';
import { secrets } from './schema.js';

export function createPgSecretRepository(db: PgDb): SecretStore {
  return {
    async put(tenant, name, sealed, at) {
      await db
        .insert(secrets)
        .values({ tenant, name, ...sealed, updatedAt: at })
        .onConflictDoUpdate({
          target: [secrets.tenant, secrets.name],
          set: { ...sealed, updatedAt: at },
        });
    },
    async get(tenant, name) {
      const [row] = await db
        .select({ ciphertext: secrets.ciphertext, iv: secrets.iv, tag: secrets.tag })
        .from(secrets)
        .where(and(eq(secrets.tenant, tenant), eq(secrets.name, name)));
      return row ?? null;
    },
    async names(tenant) {
      const rows = await db
        .select({ name: secrets.name })
        .from(secrets)
        .where(eq(secrets.tenant, tenant))
        .orderBy(byteOrder(secrets.name));
      return rows.map((row) => row.name);
    },
  };
}
