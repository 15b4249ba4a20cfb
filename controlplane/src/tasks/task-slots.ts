/** A place in the queue for a browser: at most `size` tasks hold one at once. */
export interface TaskSlots {
  /**
   * Resolves with this slot's release function (call it exactly once) when a place is free, in
   * order of asking. Rejects with the signal's reason when `signal` aborts first; the waiter
   * leaves the queue then, so an aborted task never takes a place.
   */
  acquire(signal?: AbortSignal): Promise<() => void>;
}

export function createSlots(size: number): TaskSlots {
  let free = size;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free += 1;
  };
  const once = () => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  };
  return {
    async acquire(signal) {
      signal?.throwIfAborted();
      if (free > 0) {
        free -= 1;
        return once();
      }
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          waiting.splice(waiting.indexOf(grant), 1);
          reject(signal?.reason);
        };
        const grant = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        waiting.push(grant);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      return once();
    },
  };
}
