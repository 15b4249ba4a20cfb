// A Server-Sent Events reader over a `fetch` body, plus a follower that reconnects with
// Last-Event-ID (bounded retries, exponential back-off, an idle watchdog) and honours an AbortSignal.
import { setTimeout as sleep } from 'node:timers/promises';
import { createParser } from 'eventsource-parser';

/** One dispatched SSE event (WHATWG `EventSource` semantics). */
export interface ServerSentEvent {
  /** The last event id seen on the stream so far (ids persist across events), or null. */
  id: string | null;
  /** `event:` field; `message` when absent. */
  event: string;
  /** `data:` lines joined with `\n`. */
  data: string;
}

/** Reconnection policy; `attempts` counts consecutive failures, reset by every received event. */
export interface RetryPolicy {
  attempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  attempts: 5,
  initialDelayMs: 250,
  maxDelayMs: 4000,
};

/** The delay before retry number `failure` (1-based): doubling from `initialDelayMs`, capped. */
export function backoffDelay(policy: RetryPolicy, failure: number): number {
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.max(0, failure - 1));
}

/**
 * Parses an SSE byte stream into events with `eventsource-parser` (line ends, comments, multi-line
 * `data`, chunk boundaries anywhere); the decoder keeps multi-byte characters split across chunks.
 * `onActivity` runs on every received chunk, heartbeat comments included. An event not terminated
 * by a blank line before the stream ends is dropped, as the specification requires. When `signal`
 * aborts, the body is cancelled and the iteration ends, whatever the body's source.
 */
export async function* parseServerSentEvents(
  body: ReadableStream<Uint8Array>,
  onActivity: () => void = () => undefined,
  signal?: AbortSignal,
): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const cancel = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  const decoder = new TextDecoder();
  const parsed: ServerSentEvent[] = [];
  let lastId: string | null = null;
  const parser = createParser({
    onEvent(message) {
      lastId = message.id ?? lastId;
      parsed.push({ id: lastId, event: message.event ?? 'message', data: message.data });
    },
  });
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      onActivity();
      parser.feed(decoder.decode(value, { stream: true }));
      for (const event of parsed.splice(0)) {
        if (signal?.aborted) return;
        yield event;
      }
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
    await reader.cancel().catch(() => undefined);
  }
}

/** Why the watchdog closed a silent connection. */
class IdleError extends Error {
  override readonly name = 'IdleError';
}

/** Thrown by {@link followEventStream} when every reconnection attempt failed. */
export class EventStreamLostError extends Error {
  override readonly name = 'EventStreamLostError';
  readonly code = 'EVENT_STREAM_LOST';
  /** The id to resume from, for a fallback that picks up where the stream stopped. */
  readonly lastEventId: string | null;

  constructor(message: string, lastEventId: string | null, cause: unknown) {
    super(message, { cause });
    this.lastEventId = lastEventId;
  }
}

export interface FollowEventStreamOptions {
  /** Opens one connection; resolves with the body, rejects on HTTP or transport failure. */
  open: (lastEventId: string | null, signal: AbortSignal) => Promise<ReadableStream<Uint8Array>>;
  /** Handles one event; returns true when it was the last one wanted. May throw to stop following. */
  onEvent: (event: ServerSentEvent) => boolean;
  signal?: AbortSignal | undefined;
  retry?: RetryPolicy;
  /** A connection silent for this long is treated as dropped (the controlplane sends heartbeats every 15 s). */
  idleTimeoutMs?: number;
}

/**
 * Follows an SSE endpoint until `onEvent` returns true. A dropped connection, an end of stream
 * before that, or a silent connection is retried with `Last-Event-ID`; after `retry.attempts`
 * consecutive failures it rejects with {@link EventStreamLostError}. Rejects at once with the abort
 * reason when `signal` aborts, and with non-retryable errors (HTTP 4xx, errors thrown by `onEvent`)
 * as they are.
 */
export async function followEventStream(options: FollowEventStreamOptions): Promise<void> {
  const retry = options.retry ?? defaultRetryPolicy;
  const idleTimeoutMs = options.idleTimeoutMs ?? 45_000;
  let lastEventId: string | null = null;
  let failures = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    let failure: unknown;
    const connection = new AbortController();
    const signal = options.signal
      ? AbortSignal.any([options.signal, connection.signal])
      : connection.signal;
    let watchdog: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(
        () => connection.abort(new IdleError(`no data for ${idleTimeoutMs} ms`)),
        idleTimeoutMs,
      );
    };
    try {
      arm();
      const body = await options.open(lastEventId, signal);
      for await (const event of parseServerSentEvents(body, arm, signal)) {
        lastEventId = event.id ?? lastEventId;
        failures = 0;
        if (options.onEvent(event)) return;
      }
      failure = new Error('the event stream ended before the final event');
    } catch (error) {
      if (!signal.aborted && !isStreamFailure(error)) throw error;
      failure = error;
    } finally {
      clearTimeout(watchdog);
      connection.abort();
    }
    if (options.signal?.aborted) throw options.signal.reason;
    if (connection.signal.aborted && connection.signal.reason instanceof IdleError) {
      failure = connection.signal.reason;
    }
    failures += 1;
    if (failures > retry.attempts) {
      const reason = failure instanceof Error ? failure.message : String(failure);
      throw new EventStreamLostError(
        `event stream lost after ${retry.attempts} reconnection attempts: ${reason}`,
        lastEventId,
        failure,
      );
    }
    await sleep(
      backoffDelay(retry, failures),
      undefined,
      options.signal ? { signal: options.signal } : {},
    );
  }
}

/**
 * A broken connection, as opposed to a failure of the handler or an HTTP refusal: undici reports
 * transport errors (refused, reset, "terminated" mid-body) as TypeErrors; `open` marks retryable
 * HTTP answers (5xx, 429) and its own transport errors with `retryable: true`.
 */
function isStreamFailure(error: unknown): boolean {
  if (error instanceof TypeError) return true;
  return (
    typeof error === 'object' &&
    error !== null &&
    'retryable' in error &&
    (error as { retryable: unknown }).retryable === true
  );
}
