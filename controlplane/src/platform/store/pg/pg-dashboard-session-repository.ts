// Dashboard admin sessions on PostgreSQL (drizzle + node-postgres), shared by every replica. Same
// behaviour as ../dashboard-session-repository.ts (one contract suite runs both).
import { eq, lte } from 'drizzle-orm';
import type { DashboardSessionStore } from '../dashboard-session-repository.js';
import type { PgDb } from './pg-database.js';
import { dashboardSessions } from './schema.js';

export function createPgDashboardSessionRepository(db: PgDb): DashboardSessionStore {
  return {
    async put(session) {
      await db.insert(dashboardSessions).values(session);
    },
    async expiresAt(idHash) {
      const [row] = await db
        .select({ expiresAt: dashboardSessions.expiresAt })
        .from(dashboardSessions)
        .where(eq(dashboardSessions.idHash, idHash));
      return row?.expiresAt ?? null;
    },
    async remove(idHash) {
      await db.delete(dashboardSessions).where(eq(dashboardSessions.idHash, idHash));
    },
    async removeExpired(at) {
      const result = await db.delete(dashboardSessions).where(lte(dashboardSessions.expiresAt, at));
      return result.rowCount ?? 0;
    },
  };
}
