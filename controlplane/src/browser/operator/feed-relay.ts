import type { Context } from 'hono';
import type { Logger } from 'pino';
import type { ScreencastFeed } from './screencast-feed.js';

/**
 * Relays a jail-service MJPEG feed to the viewer as-is. The upstream request ends when the viewer
 * leaves, when the feed ends, or when `watch` calls its `stop` (the task ended, the takeover is
 * over); `watch` returns its own cleanup, run once the relay stops.
 */
export async function relayFeed(
  c: Context,
  feed: ScreencastFeed,
  options: { watch: (stop: () => void) => () => void; logger: Logger; what: string },
): Promise<Response> {
  const upstream = new AbortController();
  let unwatch: (() => void) | null = null;
  let stopped = false;
  const stop = () => {
    stopped = true;
    unwatch?.();
    upstream.abort();
  };
  unwatch = options.watch(stop);
  // `watch` may have stopped at once (the task had already ended).
  if (stopped) unwatch();
  c.req.raw.signal.addEventListener('abort', stop, { once: true });
  let response: Response;
  try {
    response = await feed.open(upstream.signal);
  } catch (error) {
    stop();
    options.logger.warn({ err: error }, `${options.what} could not open the feed`);
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
