import { AppError } from '../errors.js';
import type { TaskEventFeed } from './task-event-feed.js';
import { TaskEventLog } from './task-events.js';
import type { TaskService } from './task-service.js';

/** No stored events: only the steps of the store are streamed (task-event-stream.ts). */
const noFeed: TaskEventFeed = {
  append: async () => undefined,
  since: async () => [],
  follow: () => () => undefined,
};

/**
 * The task service when no model is configured: every start is a clear 503; the events of tasks
 * run by other processes still stream from `feed`.
 */
export function createUnavailableTaskService(feed: TaskEventFeed = noFeed): TaskService {
  return {
    events: new TaskEventLog(),
    feed,
    async admit() {
      throw new AppError(
        'MODEL_NOT_CONFIGURED',
        'no model is configured: set CLAWDIE_MODEL_URL (and CLAWDIE_MODEL_NAME) or CLAWDIE_REPLAY_FILE and restart',
        { status: 503 },
      );
    },
    async start() {
      throw new Error('no task can be admitted without a model');
    },
    abort: () => false,
    isActive: () => false,
    close: async () => undefined,
  };
}
