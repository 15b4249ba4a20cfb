// Task trace persistence over drizzle + better-sqlite3: task → steps → actions → logs.
import {
  and,
  asc,
  count,
  desc,
  eq,
  inArray,
  isNull,
  lt,
  ne,
  notInArray,
  or,
  sql,
} from 'drizzle-orm';
import type { Db } from './database.js';
import { actions, logs, steps, tasks } from './schema.js';
import type {
  ActionRecord,
  LogRecord,
  StepOutcome,
  StepRecord,
  TaskRecord,
  TaskStatus,
} from './task-records.js';
import type { TaskRepository } from './task-repository-port.js';

export type {
  InterruptedTask,
  NewTask,
  StepPatch,
  TaskEnd,
  TaskListQuery,
  TaskRepository,
} from './task-repository-port.js';

/** Rows per INSERT statement when saving many actions (SQLite binds ≤ 32766 parameters). */
const INSERT_CHUNK_ROWS = 100;

/** The number of step rows of the task being updated. */
const recordedSteps = sql<number>`(SELECT count(*) FROM ${steps} WHERE ${steps.taskId} = ${tasks.id})`;

const json = (value: unknown): string | null =>
  value === undefined ? null : JSON.stringify(value);
const parse = (value: string | null): unknown => (value === null ? null : JSON.parse(value));

/** Instruction contains `text` (case-insensitive, `%` and `_` literal) or the id starts with it. */
function matches(text: string) {
  const escaped = text.replace(/[\\%_]/g, (char) => `\\${char}`);
  return or(
    sql`${tasks.instruction} LIKE ${`%${escaped}%`} ESCAPE '\\'`,
    sql`${tasks.id} LIKE ${`${escaped}%`} ESCAPE '\\'`,
  );
}

const unended = ['queued', 'running', 'paused', 'needs_user', 'awaiting_approval'] as const;

/**
 * Creates the drizzle-backed repository. `owner` (the instance id of this process, see
 * ownership/data-dir-owner.ts) is recorded on every task it creates.
 */
export function createTaskRepository(db: Db, options: { owner?: string } = {}): TaskRepository {
  const toTask = (row: typeof tasks.$inferSelect): TaskRecord => ({
    ...row,
    status: row.status as TaskStatus,
    resultData: parse(row.resultData),
    usage: parse(row.usage) as TaskRecord['usage'],
    verification: parse(row.verification),
  });
  const toStep = (row: typeof steps.$inferSelect): StepRecord => ({
    ...row,
    outcome: row.outcome as StepOutcome,
    modelUsage: parse(row.modelUsage) as StepRecord['modelUsage'],
    network: parse(row.network),
  });

  // Prepared once: drizzle's query building costs ~130 µs per call, a prepared read ~10 µs.
  const placeholder = (name: string) => sql.placeholder(name);
  const taskById = db
    .select()
    .from(tasks)
    .where(eq(tasks.id, placeholder('id')))
    .prepare();
  const stepsByTask = db
    .select()
    .from(steps)
    .where(eq(steps.taskId, placeholder('taskId')))
    .orderBy(asc(steps.index))
    .prepare();
  const stepByIndex = db
    .select()
    .from(steps)
    .where(and(eq(steps.taskId, placeholder('taskId')), eq(steps.index, placeholder('index'))))
    .prepare();
  const actionsByStep = db
    .select()
    .from(actions)
    .where(eq(actions.stepId, placeholder('stepId')))
    .orderBy(asc(actions.index))
    .prepare();

  // The step row and the task's live step_count change together.
  const insertStepCounted = db.$client.transaction(
    (taskId: string, index: number, startedAt: number): number => {
      const row = db
        .insert(steps)
        .values({ taskId, index, startedAt, outcome: 'pending' })
        .returning({ id: steps.id })
        .get();
      db.update(tasks).set({ stepCount: recordedSteps }).where(eq(tasks.id, taskId)).run();
      return row.id;
    },
  );

  return {
    async createTask({ unowned, ...task }) {
      db.insert(tasks)
        .values({
          ...task,
          tenant: task.tenant ?? 'default',
          actor: task.actor ?? null,
          ownerInstance: unowned ? null : (options.owner ?? null),
          status: 'queued',
        })
        .run();
    },
    async claimTask(id) {
      const claimed = db
        .update(tasks)
        .set({ ownerInstance: options.owner ?? null })
        .where(and(eq(tasks.id, id), eq(tasks.status, 'queued'), isNull(tasks.ownerInstance)))
        .returning({ id: tasks.id })
        .all();
      return claimed.length === 1;
    },
    async markStarted(id, at) {
      // A task paused while queued stays paused until resumed.
      const status = sql`CASE WHEN ${tasks.status} = 'paused' THEN 'paused' ELSE 'running' END`;
      db.update(tasks).set({ status, startedAt: at }).where(eq(tasks.id, id)).run();
    },
    async endTask(id, end) {
      db.update(tasks)
        .set({
          ...end,
          resultData: json(end.resultData),
          verification: end.verification == null ? null : json(end.verification),
        })
        .where(eq(tasks.id, id))
        .run();
    },
    async getTask(id, tenant) {
      // The same prepared read for everyone; a foreign tenant's row is dropped here, not in SQL.
      const row = taskById.get({ id });
      return row && (tenant === undefined || row.tenant === tenant) ? toTask(row) : null;
    },
    async listTasks({ limit, offset, status, search, tenant }) {
      const where = and(
        tenant === undefined ? undefined : eq(tasks.tenant, tenant),
        status ? eq(tasks.status, status) : undefined,
        search ? matches(search) : undefined,
      );
      const rows = db
        .select()
        .from(tasks)
        .where(where)
        .orderBy(desc(tasks.createdAt), desc(tasks.id))
        .limit(limit)
        .offset(offset)
        .all();
      const total = db.select({ n: count() }).from(tasks).where(where).get()?.n ?? 0;
      return { tasks: rows.map(toTask), total };
    },
    async countTasksByStatus() {
      const rows = db
        .select({ status: tasks.status, n: count() })
        .from(tasks)
        .groupBy(tasks.status)
        .all();
      return Object.fromEntries(rows.map((row) => [row.status, row.n]));
    },
    async failInterrupted(at, liveOwners = []) {
      const result = db
        .update(tasks)
        .set({
          status: 'error',
          errorCode: 'INTERRUPTED',
          errorMessage: 'the controlplane stopped while this task was running',
          stepCount: recordedSteps,
          endedAt: at,
        })
        .where(
          and(
            inArray(tasks.status, [...unended]),
            liveOwners.length === 0
              ? undefined
              : or(
                  and(isNull(tasks.ownerInstance), ne(tasks.status, 'queued')),
                  notInArray(tasks.ownerInstance, [...liveOwners]),
                ),
          ),
        )
        .returning({ id: tasks.id, actor: tasks.actor, stepCount: tasks.stepCount })
        .all();
      return result;
    },
    async unclaimedQueued(before) {
      const rows = db
        .select({ id: tasks.id })
        .from(tasks)
        .where(
          and(eq(tasks.status, 'queued'), isNull(tasks.ownerInstance), lt(tasks.createdAt, before)),
        )
        .all();
      return rows.map((row) => row.id);
    },
    async failUnclaimed(ids, end) {
      if (ids.length === 0) return [];
      return db
        .update(tasks)
        .set({
          status: 'error',
          errorCode: end.code,
          errorMessage: end.message,
          stepCount: recordedSteps,
          endedAt: end.at,
        })
        .where(
          and(inArray(tasks.id, [...ids]), eq(tasks.status, 'queued'), isNull(tasks.ownerInstance)),
        )
        .returning({ id: tasks.id, actor: tasks.actor, stepCount: tasks.stepCount })
        .all();
    },
    async setLiveStatus(id, status) {
      db.update(tasks)
        .set({ status })
        .where(and(eq(tasks.id, id), isNull(tasks.endedAt)))
        .run();
    },
    async insertStep(taskId, index, startedAt) {
      return insertStepCounted(taskId, index, startedAt);
    },
    async updateStep(stepId, { modelUsage, network, ...patch }) {
      const usage = modelUsage === undefined ? {} : { modelUsage: json(modelUsage) };
      const evidence = network === undefined ? {} : { network: json(network) };
      db.update(steps)
        .set({ ...patch, ...usage, ...evidence })
        .where(eq(steps.id, stepId))
        .run();
    },
    async setUsage(taskId, usage) {
      db.update(tasks)
        .set({ usage: json(usage) })
        .where(eq(tasks.id, taskId))
        .run();
    },
    async listSteps(taskId) {
      return stepsByTask.all({ taskId }).map(toStep);
    },
    async getStep(taskId, index) {
      const row = stepByIndex.get({ taskId, index });
      return row ? toStep(row) : null;
    },
    async insertActions(rows) {
      if (rows.length === 0) return;
      const values = rows.map((row) => ({
        ...row,
        modelAction: JSON.stringify(row.modelAction),
        action: json(row.action),
      }));
      // Bounded multi-row inserts in one transaction: a single INSERT of thousands of rows
      // overflowed the stack ("Maximum call stack size exceeded") and lost them all.
      db.transaction((tx) => {
        for (let start = 0; start < values.length; start += INSERT_CHUNK_ROWS) {
          tx.insert(actions)
            .values(values.slice(start, start + INSERT_CHUNK_ROWS))
            .run();
        }
      });
    },
    async listActions(stepId) {
      return actionsByStep.all({ stepId }).map((row) => ({
        ...row,
        status: row.status as ActionRecord['status'],
        modelAction: parse(row.modelAction),
        action: parse(row.action),
      }));
    },
    async appendLog(row) {
      db.insert(logs)
        .values({ ...row, data: json(row.data) })
        .run();
    },
    async listLogs(taskId, stepId) {
      const where =
        stepId === undefined
          ? eq(logs.taskId, taskId)
          : and(eq(logs.taskId, taskId), eq(logs.stepId, stepId));
      return db
        .select()
        .from(logs)
        .where(where)
        .orderBy(asc(logs.id))
        .all()
        .map((row) => ({ ...row, level: row.level as LogRecord['level'], data: parse(row.data) }));
    },
  };
}
