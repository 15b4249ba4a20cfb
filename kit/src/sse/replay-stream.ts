// Server-Sent Events over a numbered history with live subscription: what the client missed since
// its Last-Event-ID first, then live entries as they come, each exactly once and in order, with a
// heartbeat comment, until the last entry, the source's end or the client leaving. The one copy of
// that loop (controlplane task events, hostd egress refusals). Import it as
// `@clawdie/kit/sse`.
import type { Context } from 'hono';
import { type SSEMessage, type SSEStreamingApi, streamSSE } from 'hono/streaming';

/** A numbered history that can also be followed live. */
export interface ReplaySource<T> {
  /** The entries with an id above `lastId`, oldest first. */
  since(lastId: number): readonly T[];
  /** Calls `listener` with each entry added from now on; returns the unsubscribe. */
  subscribe(listener: (entry: T) => void): () => void;
}

export interface ReplayOptions<T> {
  source: ReplaySource<T>;
  /** The last id the client has (Last-Event-ID, 0 for none): only entries above it are sent. */
  lastId: number;
  /** An entry's id; ids increase in the order entries are added. Sent as the SSE `id`. */
  idOf(entry: T): number;
  /** The SSE event name and data of an entry. */
  message(entry: T): { event: string; data: string };
  /** True for the entry after which nothing can follow (a task's result): the stream ends. */
  isLast?(entry: T): boolean;
  /**
   * Settles when the source can add nothing more (a lease ended): what is pending is sent, then
   * `final` (given the last id sent), then the stream ends.
   */
  ended?: Promise<unknown>;
  final?(lastSentId: number): SSEMessage;
  /** A `: keep-alive` comment this often, so idle proxies keep the connection (default 15 s). */
  heartbeatMs?: number;
}

/**
 * Runs the replay-then-live loop on an open SSE stream; resolves when the stream is done. It
 * subscribes before it reads the history, so an entry added while the history is read or sent is
 * neither lost nor sent twice (entries at or below the last id sent are skipped).
 */
export async function replayThenLive<T>(
  stream: SSEStreamingApi,
  options: ReplayOptions<T>,
): Promise<void> {
  const queue: T[] = [];
  let wake: (() => void) | null = null;
  let over = false;
  const nudge = () => wake?.();
  const unsubscribe = options.source.subscribe((entry) => {
    queue.push(entry);
    nudge();
  });
  const end = () => {
    over = true;
    nudge();
  };
  void options.ended?.then(end, end);
  stream.onAbort(nudge);
  const heartbeat = setInterval(
    () => void stream.write(': keep-alive\n\n').catch(() => undefined),
    options.heartbeatMs ?? 15_000,
  );
  try {
    let sent = options.lastId;
    queue.unshift(...options.source.since(sent));
    for (;;) {
      for (const entry of queue.splice(0)) {
        const id = options.idOf(entry);
        if (id <= sent) continue;
        await stream.writeSSE({ id: String(id), ...options.message(entry) });
        sent = id;
        if (options.isLast?.(entry)) return;
      }
      if (stream.aborted) return;
      // Entries that arrived while we were sending are queued already: no need to sleep.
      if (queue.length > 0) continue;
      if (over) {
        if (options.final) await stream.writeSSE(options.final(sent));
        return;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = null;
    }
  } finally {
    clearInterval(heartbeat);
    unsubscribe();
  }
}

/** `replayThenLive` as a whole `text/event-stream` response. */
export function streamReplay<T>(c: Context, options: ReplayOptions<T>): Response {
  return streamSSE(c, (stream) => replayThenLive(stream, options));
}
