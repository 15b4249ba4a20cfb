// The shared task queue on PostgreSQL, kept by pg-boss 10 in its own schema (`pgboss`) of the
// store's database: SKIP LOCKED fetches, expiry of jobs fetched and never finished, and retries.
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
   * fetch → claim (a replica that died in between). Default 120 s.
   */
  expireInSeconds?: number;
  /** How often an expired or failed job is handed out again. Default 5. */
  retryLimit?: number;
}

interface JobData {
  taskId: string;
  plan: unknown;
}

/**
 * Starts pg-boss on its own small pool (creating or migrating its schema: pg-boss does that under
 * a transaction-level advisory lock, so replicas starting at once create it once) and the task
 * queue. Rejects when PostgreSQL cannot be reached.
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
  });
  // Without a listener an error event (a lost connection during maintenance) would crash the process.
  boss.on('error', (error) => logger.warn({ err: error }, 'task queue maintenance failed'));
  await boss.start();
  try {
    await boss.createQueue(TASK_QUEUE_NAME, {
      name: TASK_QUEUE_NAME,
      policy: 'standard',
      retryLimit: options.retryLimit ?? 5,
      retryDelay: 1,
      expireInSeconds: options.expireInSeconds ?? 120,
    });
  } catch (error) {
    await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
    throw error;
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
    async close() {
      if (closed) return;
      closed = true;
      await boss.stop({ graceful: false, wait: true, timeout: 5_000 });
    },
  };
}
