// The shared task queue on PostgreSQL, kept by pg-boss 10 in its own schema (`pgboss`) of the
// store's database: SKIP LOCKED fetches, expiry of jobs fetched and never finished, and retries.
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { TaskJob, TaskQueue } from '../task-queue.js';

/** The queue every replica works. */
export const TASK_QUEUE_NAME = 'clawdie-tasks';

/** The schema pg-boss creates and migrates in the store's database. */
export const TASK_QUEUE_SCHEMA = 'pgboss';

export interface PgTaskQueueOptions {
  /** The store's CLAWDIE_DATABASE_URL. */
  url: string;
  logger: Logger;
  /**
   * How long a fetched job stays active before pg-boss expires it and hands it out again (the
   * visibility timeout). A job is completed as soon as its task is claimed, so this bounds only
   * fetch → claim (a replica that died in between). Default 60 s.
   */
  expireInSeconds?: number;
  /**
   * How often pg-boss's maintenance (one replica per round) expires such jobs and archives old
   * ones. Default 30 s: a job left by a replica that died before its claim is handed out again
   * within expiry + this interval.
   */
  maintenanceIntervalSeconds?: number;
  /** How often an expired or failed job is handed out again. Default 5. */
  retryLimit?: number;
}

interface JobData {
  taskId: string;
  plan: unknown;
}

/** The session-level advisory lock replicas take while they create the schema and the queue. */
const SETUP_LOCK = 'clawdie.task-queue';

/**
 * Starts pg-boss on its own small pool, creating or migrating its schema and creating the task
 * queue one replica at a time (under an advisory lock: two `create_queue` calls at once can
 * deadlock), and the task queue. Rejects when PostgreSQL cannot be reached.
 */
export async function openPgTaskQueue(options: PgTaskQueueOptions): Promise<TaskQueue> {
  const logger = options.logger.child({ module: 'task-queue' });
  const boss = new PgBoss({
    connectionString: options.url,
    schema: TASK_QUEUE_SCHEMA,
    application_name: 'clawdie-queue',
    max: 3,
    // No cron schedules; maintenance (expiry, archiving) runs on every replica, under pg-boss's locks.
    schedule: false,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
  });
  // Without a listener an error event (a lost connection during maintenance) would crash the process.
  boss.on('error', (error) => logger.warn({ err: error }, 'task queue maintenance failed'));
  const setup = new pg.Client({ connectionString: options.url, application_name: 'clawdie-queue' });
  await setup.connect();
  try {
    await setup.query('SELECT pg_advisory_lock(hashtext($1))', [SETUP_LOCK]);
    await boss.start();
    const queue = {
      name: TASK_QUEUE_NAME,
      policy: 'standard' as const,
      retryLimit: options.retryLimit ?? 5,
      retryDelay: 1,
      expireInSeconds: options.expireInSeconds ?? 60,
    };
    await boss.createQueue(TASK_QUEUE_NAME, queue);
    // A queue made by an earlier version keeps its settings otherwise.
    await boss.updateQueue(TASK_QUEUE_NAME, queue);
  } catch (error) {
    await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
    throw error;
  } finally {
    // Ending the session frees the lock.
    await setup.end().catch(() => undefined);
  }
  let closed = false;
  return {
    async send(taskId, plan) {
      const data: JobData = { taskId, plan };
      await boss.send(TASK_QUEUE_NAME, data);
    },
    async fetch(): Promise<TaskJob | null> {
      const [job] = await boss.fetch<JobData>(TASK_QUEUE_NAME, { batchSize: 1 });
      return job ? { id: job.id, taskId: job.data.taskId, plan: job.data.plan } : null;
    },
    complete: (jobId) => boss.complete(TASK_QUEUE_NAME, jobId),
    fail: (jobId, reason) => boss.fail(TASK_QUEUE_NAME, jobId, { reason }),
    async dispatchable(taskIds) {
      if (taskIds.length === 0) return new Set<string>();
      const { rows } = (await boss.getDb().executeSql(
        `SELECT DISTINCT data->>'taskId' AS id FROM ${TASK_QUEUE_SCHEMA}.job
          WHERE name = $1 AND state IN ('created', 'retry', 'active') AND data->>'taskId' = ANY($2)`,
        [TASK_QUEUE_NAME, [...taskIds]],
      )) as { rows: { id: string }[] };
      return new Set(rows.map((row) => row.id));
    },
    async close() {
      if (closed) return;
      closed = true;
      await boss.stop({ graceful: false, wait: true, timeout: 5_000 });
    },
  };
}
