// Every task's numbered events, followable from any replica on the same database: the process that
// runs a task stores each event (in the task's write order, so `seq` has no gaps) and then notifies
// `clawdie_task_events`; a follower (task-event-follower.ts) re-reads the store after the last id
// it delivered whenever it may have missed something.
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { NotifyChannel } from '../platform/notify/notify-channel.js';
import type { TaskEventStore } from '../platform/store/task-event-repository.js';
import { followTaskEvents, TASK_EVENTS_CHANNEL } from './task-event-follower.js';
import type { NumberedEvent, TaskStreamEvent } from './task-events.js';
import type { CompactResult } from './task-input.js';

export interface FollowOptions {
  /**
   * The result of the task's row when a replica's recovery ended it INTERRUPTED (its process died
   * before storing its own `result`), else null; checked every `pollMs`. That result is stored as
   * the task's next event, so every follower, on any replica, gets the same one and ends.
   */
  interrupted?: () => Promise<CompactResult | null>;
}

export interface TaskEventFeed {
  /**
   * Stores event `seq` of a task (the caller numbers them 1, 2, … in order), then notifies the
   * followers. Rejects when the store does; a failed notification is logged (followers poll).
   */
  append(taskId: string, seq: number, event: TaskStreamEvent, at: number): Promise<void>;
  /** The task's stored events with an id above `afterId`, oldest first. */
  since(taskId: string, afterId: number): Promise<NumberedEvent[]>;
  /**
   * Calls `listener` with each event of the task above `afterId`, in order and each once: those
   * stored now, then each one stored later by any process, until the `result` event or the
   * returned stop. The listener must not throw.
   */
  follow(
    taskId: string,
    afterId: number,
    listener: (entry: NumberedEvent) => void,
    options?: FollowOptions,
  ): () => void;
}

export interface TaskEventFeedDeps {
  store: TaskEventStore;
  notify: NotifyChannel;
  clock: Clock;
  logger: Logger;
  /**
   * How often a follower re-reads without a notification, in ms (the safety net, and the only
   * news from a process on another channel: the CLI beside a server on SQLite). Default 2000.
   */
  pollMs?: number;
}

export function createTaskEventFeed(deps: TaskEventFeedDeps): TaskEventFeed {
  const { store, notify, logger } = deps;
  const feed: TaskEventFeed = {
    async append(taskId, seq, event, at) {
      await store.append(taskId, seq, event, at);
      notify
        .notify(TASK_EVENTS_CHANNEL, JSON.stringify({ taskId, seq }))
        .catch((error: unknown) =>
          logger.warn({ err: error, taskId, seq }, 'task event not notified'),
        );
    },
    since: (taskId, afterId) => store.since(taskId, afterId),
    follow: (taskId, afterId, listener, options = {}) =>
      followTaskEvents(
        { taskId, afterId, listener, ...options },
        { ...deps, append: feed.append, pollMs: deps.pollMs ?? 2_000 },
      ),
  };
  return feed;
}
