// The port replicas use to tell each other that something changed (a task's new event, a command
// for the replica that runs a task). A notification is a hint, never the data: readers re-read the
// store, so a notification lost while a connection was down costs latency, not correctness.

/** One named channel's messages: the payload is a short string (PostgreSQL caps it below 8000 bytes). */
export type NotifyListener = (payload: string) => void;

export interface NotifyChannel {
  /**
   * Receives every later `notify` on `channel`, from this process and (PostgreSQL) every other
   * one on the same database. Resolves once listening; the returned function stops it.
   */
  listen(channel: string, listener: NotifyListener): Promise<() => Promise<void>>;
  /** Sends `payload` to every listener of `channel`, this process's too. */
  notify(channel: string, payload: string): Promise<void>;
  /**
   * Called after the channel lost its connection and listens again: notifications sent meanwhile
   * were missed, so readers re-read what they follow. Returns the unsubscribe function.
   */
  onResumed(listener: () => void): () => void;
  /** Stops listening; later `notify` calls reject. Idempotent. */
  close(): Promise<void>;
}

/** Largest payload accepted, in bytes: PostgreSQL's limit is 8000 with the channel name. */
export const MAX_NOTIFY_PAYLOAD = 7_000;

export class NotifyPayloadTooLargeError extends Error {
  readonly code = 'NOTIFY_PAYLOAD_TOO_LARGE';
  constructor(bytes: number) {
    super(`a notification of ${bytes} bytes is over the ${MAX_NOTIFY_PAYLOAD}-byte limit`);
    this.name = 'NotifyPayloadTooLargeError';
  }
}

export function checkPayload(payload: string): void {
  const bytes = Buffer.byteLength(payload);
  if (bytes > MAX_NOTIFY_PAYLOAD) throw new NotifyPayloadTooLargeError(bytes);
}

/**
 * The in-process adapter: one controlplane on SQLite, and the fake for tests. Delivery is
 * asynchronous (a microtask later), as it is over PostgreSQL, so no caller relies on a listener
 * having run before `notify` returns.
 */
export function createLocalNotifyChannel(): NotifyChannel {
  const listeners = new Map<string, Set<NotifyListener>>();
  let closed = false;
  return {
    async listen(channel, listener) {
      if (closed) throw new Error('the notify channel is closed');
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
      }
      set.add(listener);
      return async () => {
        set.delete(listener);
      };
    },
    async notify(channel, payload) {
      if (closed) throw new Error('the notify channel is closed');
      checkPayload(payload);
      await Promise.resolve();
      for (const listener of [...(listeners.get(channel) ?? [])]) listener(payload);
    },
    onResumed: () => () => {},
    async close() {
      closed = true;
      listeners.clear();
    },
  };
}
