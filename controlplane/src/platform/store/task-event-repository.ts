// A task's numbered stream events in the store (drizzle + better-sqlite3): what a follower on any
// replica replays after its Last-Event-ID (tasks/task-event-feed.ts).
import { and, asc, eq, gt } from 'drizzle-orm';
import type { NumberedEvent, TaskStreamEvent } from '../../tasks/task-events.js';
import type { Db } from './database.js';
import { taskEvents } from './schema.js';

/**
 * The store port of task events. A task's events are appended by the one process that runs it, in
 * order, `seq` 1, 2, … (the caller numbers them); every process reads them. Deleted with the task.
 */
export interface TaskEventStore {
  /** Stores event `seq` of `taskId` (its row must exist); rejects when that `seq` is stored. */
  append(taskId: string, seq: number, event: TaskStreamEvent, at: number): Promise<void>;
  /** The task's events with a `seq` above `afterSeq`, oldest first (none for an unknown task). */
  since(taskId: string, afterSeq: number): Promise<NumberedEvent[]>;
}

type Row = typeof taskEvents.$inferSelect;

/** The row of an event (shared with the PostgreSQL adapter). */
export const taskEventRow = (
  taskId: string,
  seq: number,
  event: TaskStreamEvent,
  at: number,
): Row => ({ taskId, seq, type: event.type, data: JSON.stringify(event.data), at });

/** The event of a row (shared with the PostgreSQL adapter). */
export const numberedEventOf = (row: Pick<Row, 'seq' | 'type' | 'data'>): NumberedEvent => ({
  id: row.seq,
  event: { type: row.type, data: JSON.parse(row.data) } as TaskStreamEvent,
});

export function createTaskEventRepository(db: Db): TaskEventStore {
  const insert = db.$client.prepare(
    'INSERT INTO task_events (task_id, seq, type, data, at) VALUES (@taskId, @seq, @type, @data, @at)',
  );
  return {
    async append(taskId, seq, event, at) {
      insert.run(taskEventRow(taskId, seq, event, at));
    },
    async since(taskId, afterSeq) {
      return db
        .select({ seq: taskEvents.seq, type: taskEvents.type, data: taskEvents.data })
        .from(taskEvents)
        .where(and(eq(taskEvents.taskId, taskId), gt(taskEvents.seq, afterSeq)))
        .orderBy(asc(taskEvents.seq))
        .all()
        .map(numberedEventOf);
    },
  };
}
