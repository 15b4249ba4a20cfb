// Dashboard admin sessions on drizzle + better-sqlite3: rows keyed by the SHA-256 of the cookie's
// random id (never the id itself). PostgreSQL's adapter is pg/pg-dashboard-session-repository.ts.
import { eq, lte } from 'drizzle-orm';
import type { Db } from './database.js';
import { dashboardSessions } from './schema.js';

/** The store port for dashboard sessions; every id is already hashed by the caller. */
export interface DashboardSessionStore {
  put(session: { idHash: string; expiresAt: number; createdAt: number }): Promise<void>;
  /** When the session ends (epoch ms), or null when there is no such row. */
  expiresAt(idHash: string): Promise<number | null>;
  remove(idHash: string): Promise<void>;
  /** Deletes every session whose expires_at is at or before `at`; how many went. */
  removeExpired(at: number): Promise<number>;
}

export function createDashboardSessionRepository(db: Db): DashboardSessionStore {
  return {
    async put(session) {
      db.insert(dashboardSessions).values(session).run();
    },
    async expiresAt(idHash) {
      const row = db
        .select({ expiresAt: dashboardSessions.expiresAt })
        .from(dashboardSessions)
        .where(eq(dashboardSessions.idHash, idHash))
        .get();
      return row?.expiresAt ?? null;
    },
    async remove(idHash) {
      db.delete(dashboardSessions).where(eq(dashboardSessions.idHash, idHash)).run();
    },
    async removeExpired(at) {
      return db.delete(dashboardSessions).where(lte(dashboardSessions.expiresAt, at)).run().changes;
    },
  };
}
