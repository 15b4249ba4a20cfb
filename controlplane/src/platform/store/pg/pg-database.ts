// Opens the shared PostgreSQL store (node-postgres pool) and applies the committed drizzle
// migrations of controlplane/drizzle-pg, one replica at a time.
import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { retryPoolConnections } from './pg-retry.js';
import * as schema from './schema.js';

/** The drizzle database over a pool; `$client` is the pool. */
export type PgDb = NodePgDatabase<typeof schema> & { $client: pg.Pool };

export interface OpenPgDatabaseResult {
  db: PgDb;
  /** Ends the pool: waits for checked-out clients to be released. */
  close(): Promise<void>;
}

export interface PgDatabaseOptions {
  /** Connections in the pool (a controlplane process needs few). Default 5. */
  maxConnections?: number;
  /** Longest a statement (or a wait for a lock) may take, in ms. Default 15 000. */
  statementTimeoutMs?: number;
  /** Longest a statement waits for the server to be reachable again. Default 30 000 ms. */
  reconnectDeadlineMs?: number;
  /** An idle pooled connection failed (the server restarted); the pool drops it. Default: ignore. */
  onIdleError?: (error: Error) => void;
}

/** Migrations live in `controlplane/drizzle-pg`, three levels up from src|dist/platform/store/pg. */
const migrationsFolder = fileURLToPath(new URL('../../../../drizzle-pg', import.meta.url));

/** The session-level advisory lock every migrating process takes: one key for this database. */
const MIGRATION_LOCK = 'clawdie.migrations';

/**
 * Connects to `url` (`postgres://…`), applies pending migrations under an advisory lock (two
 * replicas starting at once migrate one after the other; the second finds nothing to do), and
 * returns the database. Rejects when the server cannot be reached or a migration fails.
 */
export async function openPgDatabase(
  url: string,
  options: PgDatabaseOptions = {},
): Promise<OpenPgDatabaseResult> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 5,
    application_name: 'clawdie',
    statement_timeout: options.statementTimeoutMs ?? 15_000,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
  });
  // Without a listener an idle client's error (server restart) would crash the process.
  pool.on('error', options.onIdleError ?? (() => {}));
  try {
    await migrateLocked(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  // Once started, a restart or failover of a few seconds is waited out rather than failing the
  // statement (a server that cannot be reached at start refuses the start at once, above).
  retryPoolConnections(pool, { deadlineMs: options.reconnectDeadlineMs ?? 30_000 });
  const db = drizzle({ client: pool, schema });
  return { db, close: () => pool.end() };
}

async function migrateLocked(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [MIGRATION_LOCK]);
    await migrate(drizzle({ client }), { migrationsFolder });
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [MIGRATION_LOCK]);
  } catch (error) {
    // Destroying the connection also frees a lock it still holds.
    client.release(error instanceof Error ? error : true);
    throw error;
  }
  client.release();
}
