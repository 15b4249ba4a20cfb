// Encrypted secrets on drizzle + better-sqlite3. Only ciphertext, IV and tag are stored.
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from './database.js';
import { secrets } from './schema.js';

export interface SealedSecret {
  ciphertext: string;
  iv: string;
  tag: string;
}

/** The store port for sealed secrets; Promises, so that an asynchronous store can implement it. */
export interface SecretStore {
  put(tenant: string, name: string, sealed: SealedSecret, at: number): Promise<void>;
  get(tenant: string, name: string): Promise<SealedSecret | null>;
  /** The names of `tenant`'s secrets, by name (byte order). */
  names(tenant: string): Promise<string[]>;
}

export function createSecretRepository(db: Db): SecretStore {
  return {
    async put(tenant, name, sealed, at) {
      db.insert(secrets)
        .values({ tenant, name, ...sealed, updatedAt: at })
        .onConflictDoUpdate({
          target: [secrets.tenant, secrets.name],
          set: { ...sealed, updatedAt: at },
        })
        .run();
    },
    async get(tenant, name) {
      const row = db
        .select({ ciphertext: secrets.ciphertext, iv: secrets.iv, tag: secrets.tag })
        .from(secrets)
        .where(and(eq(secrets.tenant, tenant), eq(secrets.name, name)))
        .get();
      return row ?? null;
    },
    async names(tenant) {
      return db
        .select({ name: secrets.name })
        .from(secrets)
        .where(eq(secrets.tenant, tenant))
        .orderBy(asc(secrets.name))
        .all()
        .map((row) => row.name);
    },
  };
}
