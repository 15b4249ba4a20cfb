import type { Context } from 'hono';
import type { Logger } from 'pino';
import type { ScreencastFeed } from '../operator/screencast-feed.js';

/**
 * Relays a jail-service MJPEG feed while `stillActive()` holds (checked twice a second), so the
 * operator's view ends with the takeover; also ends when the viewer leaves.
 */
export async function relayFeed(
  c: Context,
  feed: ScreencastFeed,
  stillActive: () => boolean,
  logger: Logger,
): Promise<Response> {
  const upstream = new AbortController();
  const watch = setInterval(() => {
    if (!stillActive()) upstream.abort();
  }, 500);
  const stop = () => {
    clearInterval(watch);
    upstream.abort();
  };
  c.req.raw.signal.addEventListener('abort', stop, { once: true });
  let response: Response;
  try {
    response = await feed.open(upstream.signal);
  } catch (error) {
    stop();
    logger.warn({ err: error }, 'takeover feed could not be opened');
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
