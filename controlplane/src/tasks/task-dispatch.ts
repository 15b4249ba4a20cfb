// The fetch loop of the shared task queue on one replica: it fetches a job only while one of the
// replica's browser slots is free (task-slots.ts, shared with the tasks it runs locally), hands
// the job to `take` with that slot, and completes the job once `take` has claimed (or skipped)
// the task. It fetches at once when any replica announces a job, else every `pollMs`.
import type { Logger } from 'pino';
import type { NotifyChannel } from '../platform/notify/notify-channel.js';
import type { TaskJob, TaskQueue } from '../platform/store/task-queue.js';
import type { TaskSlots } from './task-slots.js';

/** The channel a replica announces a sent job on (the payload is empty: fetch to see). */
export const TASK_QUEUE_CHANNEL = 'clawdie_task_queue';

export interface TaskDispatchDeps {
  queue: TaskQueue;
  notify: NotifyChannel;
  slots: TaskSlots;
  logger: Logger;
  /**
   * Claims the job's task and starts it holding `slot` (true), or calls `slot` and resolves false
   * when the task is no longer waiting (claimed elsewhere, aborted). Rejects when the claim
   * could not be tried (the slot is released); the job is then failed and fetched again.
   */
  take(job: TaskJob, slot: () => void): Promise<boolean>;
  /** How often an idle replica looks for a job nobody announced. Default 2000 ms. */
  pollMs?: number;
}

export interface TaskDispatch {
  /** Queues the task and announces it to every replica. */
  send(taskId: string, plan: unknown): Promise<void>;
  /** Stops fetching and waits for the jobs in hand to be claimed or skipped. */
  close(): Promise<void>;
}

export function startTaskDispatch(deps: TaskDispatchDeps): TaskDispatch {
  const logger = deps.logger.child({ module: 'task-dispatch' });
  const pollMs = deps.pollMs ?? 2_000;
  const closing = new AbortController();
  const handling = new Set<Promise<void>>();
  let hinted = false;
  let wake = () => {};
  const poke = () => {
    hinted = true;
    wake();
  };
  const unlisten = deps.notify.listen(TASK_QUEUE_CHANNEL, poke).catch((error: unknown) => {
    logger.warn({ err: error }, 'task queue announcements not heard; polling');
    return async () => undefined;
  });
  const unresumed = deps.notify.onResumed(poke);

  const nap = async () => {
    if (!hinted && !closing.signal.aborted)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    hinted = false;
  };

  const handle = async (job: TaskJob, slot: () => void) => {
    try {
      const taken = await deps.take(job, slot);
      logger.debug({ taskId: job.taskId, taken }, 'task job handled');
      await deps.queue.complete(job.id);
    } catch (error) {
      logger.warn({ err: error, taskId: job.taskId }, 'task job not handled; it will be retried');
      await deps.queue.fail(job.id, (error as Error).message).catch(() => undefined);
    }
  };

  const loop = async () => {
    await unlisten;
    while (!closing.signal.aborted) {
      const slot = await deps.slots.acquire(closing.signal).catch(() => null);
      if (!slot) return;
      const job = await deps.queue.fetch().catch((error: unknown) => {
        logger.warn({ err: error }, 'task queue fetch failed; retrying');
        return null;
      });
      if (!job) {
        slot();
        await nap();
        continue;
      }
      const handled = handle(job, slot);
      handling.add(handled);
      void handled.finally(() => handling.delete(handled));
    }
  };
  const looping = loop();

  return {
    async send(taskId, plan) {
      await deps.queue.send(taskId, plan);
      // This replica's own loop at once; the others when the announcement reaches them.
      poke();
      await deps.notify.notify(TASK_QUEUE_CHANNEL, '').catch((error: unknown) => {
        logger.warn({ err: error, taskId }, 'task job not announced; replicas poll');
      });
    },
    async close() {
      closing.abort();
      wake();
      unresumed();
      await looping;
      await Promise.all(handling);
      await (await unlisten)();
    },
  };
}
