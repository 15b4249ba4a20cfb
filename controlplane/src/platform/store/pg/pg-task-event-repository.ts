// A task's numbered stream events on PostgreSQL (drizzle + node-postgres); see
// ../task-event-repository.ts for the port.
import { and, asc, eq, gt } from 'drizzle-orm';
import { numberedEventOf, type TaskEventStore, taskEventRow } from '../task-event-repository.js';
import type { PgDb } from './pg-database.js';
import { taskEvents } from './schema.js';

export function createPgTaskEventRepository(db: PgDb): TaskEventStore {
  return {
    async append(taskId, seq, event, at) {
      await db.insert(taskEvents).values(taskEventRow(taskId, seq, event, at));
    },
    async since(taskId, afterSeq) {
      const rows = await db
        .select({ seq: taskEvents.seq, type: taskEvents.type, data: taskEvents.data })
        .from(taskEvents)
        .where(and(eq(taskEvents.taskId, taskId), gt(taskEvents.seq, afterSeq)))
        .orderBy(asc(taskEvents.seq));
      return rows.map(numberedEventOf);
    },
  };
}
