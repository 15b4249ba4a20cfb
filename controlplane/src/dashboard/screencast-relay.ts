import type { Context } from 'hono';
import type { Logger } from 'pino';
import type { ScreencastFeed } from '../operator/screencast-feed.js';
import type { TaskService } from '../tasks/task-service.js';

/**
 * Relays the jail-service's MJPEG feed to the browser as-is. The upstream request ends when the
 * viewer leaves or the task ends (its `result` event), so no feed outlives its task.
 */
export async function relayScreencast(
  c: Context,
  taskId: string,
  feed: ScreencastFeed,
  deps: { tasks: TaskService; logger: Logger },
): Promise<Response> {
  const upstream = new AbortController();
  const unsubscribe = deps.tasks.events.subscribe(taskId, (entry) => {
    if (entry.event.type === 'result') upstream.abort();
  });
  const stop = () => {
    unsubscribe();
    upstream.abort();
  };
  c.req.raw.signal.addEventListener('abort', stop, { once: true });
  let response: Response;
  try {
    response = await feed.open(upstream.signal);
  } catch (error) {
    stop();
    deps.logger.warn({ err: error, taskId }, 'screencast relay could not open the feed');
    return c.text('the live feed is not available', 502);
  }
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          stop();
          controller.close();
        } else controller.enqueue(chunk.value);
      } catch {
        stop();
        controller.close();
      }
    },
    cancel() {
      stop();
      void reader.cancel().catch(() => undefined);
    },
  });
  return new Response(body, {
    headers: {
      'content-type': response.headers.get('content-type') ?? 'multipart/x-mixed-replace',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
