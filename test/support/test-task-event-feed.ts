import { systemClock } from '../../controlplane/src/clock.js';
import { createLocalNotifyChannel } from '../../controlplane/src/platform/notify/notify-channel.js';
import type { Db } from '../../controlplane/src/platform/store/database.js';
import { createTaskEventRepository } from '../../controlplane/src/platform/store/task-event-repository.js';
import {
  createTaskEventFeed,
  type TaskEventFeed,
} from '../../controlplane/src/tasks/task-event-feed.js';
import { silentLogger } from './silent-logger.js';

/** The task event feed of one process on SQLite: the events table of `db`, an in-process channel. */
export function testTaskEventFeed(db: Db): TaskEventFeed {
  return createTaskEventFeed({
    store: createTaskEventRepository(db),
    notify: createLocalNotifyChannel(),
    clock: systemClock,
    logger: silentLogger,
  });
}
