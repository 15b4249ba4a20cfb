// Task traces on PostgreSQL (drizzle + node-postgres): task → steps → actions → logs, the same
// rows and behaviour as ../task-repository.ts (one contract suite runs both).
import {
  and,
  asc,
  count,
  desc,
  eq,
  ilike,
  inArray,
  isNull,
  lt,
  ne,
  notInArray,
  or,
  sql,
} from 'drizzle-orm';
import type {
  ActionRecord,
  LogRecord,
  StepOutcome,
  StepRecord,
  TaskRecord,
  TaskStatus,
} from '../task-records.js';
import type { TaskRepository } from '../task-repository-port.js';
import type { PgDb } from './pg-database.js';
import { byteOrder } from './pg-order.js';
import { retryConnectionLoss } from './pg-retry.js';
import { actions, logs, steps, tasks } from './schema.js';

/** Rows per INSERT statement when saving many actions (PostgreSQL binds ≤ 65535 parameters). */
const INSERT_CHUNK_ROWS = 500;

const recordedSteps = sql<number>`(SELECT count(*) FROM ${steps} WHERE ${steps.taskId} = ${tasks.id})`;
const json = (value: unknown): string | null =>
  value === undefined ? null : JSON.stringify(value);
const parse = (value: string | null): unknown => (value === null ? null : JSON.parse(value));
const unended = ['queued', 'running', 'paused', 'needs_user', 'awaiting_approval'] as const;

/** Instruction contains `text` (case-insensitive, `%` and `_` literal) or the id starts with it. */
function matches(text: string) {
  const escaped = text.replace(/[\\%_]/g, (char) => `\\${char}`);
  return or(ilike(tasks.instruction, `%${escaped}%`), ilike(tasks.id, `${escaped}%`));
}

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

/** `owner`: this process's instance id, recorded on every task it creates. */
export function createPgTaskRepository(db: PgDb, options: { owner?: string } = {}): TaskRepository {
  return {
    async createTask({ unowned, ...task }) {
      await db.insert(tasks).values({
        ...task,
        tenant: task.tenant ?? 'default',
        actor: task.actor ?? null,
        ownerInstance: unowned ? null : (options.owner ?? null),
        status: 'queued',
      });
    },
    async claimTask(id) {
      // One statement: of replicas claiming at once, the row lock lets exactly one UPDATE match.
      const claimed = await db
        .update(tasks)
        .set({ ownerInstance: options.owner ?? null })
        .where(and(eq(tasks.id, id), eq(tasks.status, 'queued'), isNull(tasks.ownerInstance)))
        .returning({ id: tasks.id });
      return claimed.length === 1;
    },
    async markStarted(id, at) {
      const status = sql`CASE WHEN ${tasks.status} = 'paused' THEN 'paused' ELSE 'running' END`;
      await db.update(tasks).set({ status, startedAt: at }).where(eq(tasks.id, id));
    },
    async endTask(id, end) {
      await db
        .update(tasks)
        .set({
          ...end,
          resultData: json(end.resultData),
          verification: end.verification == null ? null : json(end.verification),
        })
        .where(eq(tasks.id, id));
    },
    async getTask(id, tenant) {
      const [row] = await db.select().from(tasks).where(eq(tasks.id, id));
      return row && (tenant === undefined || row.tenant === tenant) ? toTask(row) : null;
    },
    async listTasks({ limit, offset, status, search, tenant }) {
      const where = and(
        tenant === undefined ? undefined : eq(tasks.tenant, tenant),
        status ? eq(tasks.status, status) : undefined,
        search ? matches(search) : undefined,
      );
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(tasks)
          .where(where)
          .orderBy(desc(tasks.createdAt), desc(byteOrder(tasks.id)))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(tasks).where(where),
      ]);
      return { tasks: rows.map(toTask), total: total?.n ?? 0 };
    },
    async countTasksByStatus() {
      const rows = await db
        .select({ status: tasks.status, n: count() })
        .from(tasks)
        .groupBy(tasks.status);
      return Object.fromEntries(rows.map((row) => [row.status, row.n]));
    },
    async failInterrupted(at, liveOwners = []) {
      return db
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
        .returning({ id: tasks.id, actor: tasks.actor, stepCount: tasks.stepCount });
    },
    async unclaimedQueued(before) {
      const rows = await db
        .select({ id: tasks.id })
        .from(tasks)
        .where(
          and(eq(tasks.status, 'queued'), isNull(tasks.ownerInstance), lt(tasks.createdAt, before)),
        );
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
        .returning({ id: tasks.id, actor: tasks.actor, stepCount: tasks.stepCount });
    },
    async setLiveStatus(id, status) {
      await db
        .update(tasks)
        .set({ status })
        .where(and(eq(tasks.id, id), isNull(tasks.endedAt)));
    },
    async insertStep(taskId, index, startedAt) {
      // The step row and the task's live step_count change together. A connection lost midway
      // retries the transaction; one whose commit landed unseen finds its row.
      let tried = false;
      return retryConnectionLoss(async () => {
        if (tried) {
          const [landed] = await db
            .select({ id: steps.id })
            .from(steps)
            .where(and(eq(steps.taskId, taskId), eq(steps.index, index)));
          if (landed) return landed.id;
        }
        tried = true;
        return db.transaction(async (tx) => {
          const [row] = await tx
            .insert(steps)
            .values({ taskId, index, startedAt, outcome: 'pending' })
            .returning({ id: steps.id });
          await tx.update(tasks).set({ stepCount: recordedSteps }).where(eq(tasks.id, taskId));
          if (!row) throw new Error('unreachable: INSERT … RETURNING returned no row');
          return row.id;
        });
      });
    },
    async updateStep(stepId, { modelUsage, network, ...patch }) {
      const usage = modelUsage === undefined ? {} : { modelUsage: json(modelUsage) };
      const evidence = network === undefined ? {} : { network: json(network) };
      await db
        .update(steps)
        .set({ ...patch, ...usage, ...evidence })
        .where(eq(steps.id, stepId));
    },
    async setUsage(taskId, usage) {
      await db
        .update(tasks)
        .set({ usage: json(usage) })
        .where(eq(tasks.id, taskId));
    },
    async listSteps(taskId) {
      const rows = await db
        .select()
        .from(steps)
        .where(eq(steps.taskId, taskId))
        .orderBy(asc(steps.index));
      return rows.map(toStep);
    },
    async getStep(taskId, index) {
      const [row] = await db
        .select()
        .from(steps)
        .where(and(eq(steps.taskId, taskId), eq(steps.index, index)));
      return row ? toStep(row) : null;
    },
    async insertActions(rows) {
      if (rows.length === 0) return;
      const values = rows.map((row) => ({
        ...row,
        modelAction: JSON.stringify(row.modelAction),
        action: json(row.action),
      }));
      // All or none: a connection lost midway rolls back and the whole insert is retried.
      await retryConnectionLoss(() =>
        db.transaction(async (tx) => {
          for (let start = 0; start < values.length; start += INSERT_CHUNK_ROWS)
            await tx.insert(actions).values(values.slice(start, start + INSERT_CHUNK_ROWS));
        }),
      );
    },
    async listActions(stepId) {
      const rows = await db
        .select()
        .from(actions)
        .where(eq(actions.stepId, stepId))
        .orderBy(asc(actions.index));
      return rows.map((row) => ({
        ...row,
        status: row.status as ActionRecord['status'],
        modelAction: parse(row.modelAction),
        action: parse(row.action),
      }));
    },
    async appendLog(row) {
      await db.insert(logs).values({ ...row, data: json(row.data) });
    },
    async listLogs(taskId, stepId) {
      const where =
        stepId === undefined
          ? eq(logs.taskId, taskId)
          : and(eq(logs.taskId, taskId), eq(logs.stepId, stepId));
      const rows = await db.select().from(logs).where(where).orderBy(asc(logs.id));
      return rows.map((row) => ({
        ...row,
        level: row.level as LogRecord['level'],
        data: parse(row.data),
      }));
    },
  };
}
