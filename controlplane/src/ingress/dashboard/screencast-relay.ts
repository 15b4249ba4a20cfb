import type { Context } from 'hono';
import type { Logger } from 'pino';
import { relayFeed } from '../../browser/operator/feed-relay.js';
import type { ScreencastFeed } from '../../browser/operator/screencast-feed.js';
import type { TaskService } from '../../tasks/task-service.js';

/**
 * Relays the jail-service's MJPEG feed to the dashboard as-is. The upstream request ends when the
 * viewer leaves or the task ends (its `result` event), so no feed outlives its task.
 */
export function relayScreencast(
  c: Context,
  taskId: string,
  feed: ScreencastFeed,
  deps: { tasks: TaskService; logger: Logger },
): Promise<Response> {
  return relayFeed(c, feed, {
    watch: (stop) =>
      deps.tasks.events.subscribe(taskId, (entry) => {
        if (entry.event.type === 'result') stop();
      }),
    logger: deps.logger.child({ taskId }),
    what: 'screencast relay',
  });
}
