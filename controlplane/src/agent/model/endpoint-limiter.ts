// One concurrency limit per model endpoint, shared by every task: eight tasks must not stampede
// one vLLM. Requests past the limit wait their turn in arrival order.

export interface EndpointLimiter {
  /**
   * Resolves with `release` once a slot is free (call it exactly once; further calls do nothing).
   * Rejects with the signal's reason when it aborts while waiting, and then holds no slot.
   */
  acquire(signal?: AbortSignal): Promise<() => void>;
  /** Requests holding a slot now. */
  readonly active: number;
  /** Requests waiting for one. */
  readonly waiting: number;
}

interface Waiter {
  grant(): void;
}

/** A FIFO limiter of `limit` slots (CLAWDIE_MODEL_CONCURRENCY). */
export function createEndpointLimiter(limit: number): EndpointLimiter {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be an integer ≥ 1');
  let active = 0;
  const queue: Waiter[] = [];

  const slot = (): (() => void) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = queue.shift();
      if (next) next.grant();
      else active -= 1;
    };
  };

  return {
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    acquire(signal) {
      signal?.throwIfAborted();
      if (active < limit) {
        active += 1;
        return Promise.resolve(slot());
      }
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          const index = queue.indexOf(waiter);
          if (index >= 0) queue.splice(index, 1);
          reject(signal?.reason);
        };
        // A granted slot passes straight from the releasing request to this one.
        const waiter: Waiter = {
          grant() {
            signal?.removeEventListener('abort', onAbort);
            resolve(slot());
          },
        };
        queue.push(waiter);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}
