/**
 * A pause switch for one task's loop: while paused, `wait()` blocks (the loop calls it at the start
 * of each step); `resume()` releases it. An abort releases it too, with the signal's reason.
 */
export class PauseGate {
  #paused = false;
  #waiters = new Set<() => void>();

  get paused(): boolean {
    return this.#paused;
  }

  pause(): void {
    this.#paused = true;
  }

  resume(): void {
    this.#paused = false;
    for (const release of this.#waiters) release();
    this.#waiters.clear();
  }

  /** Resolves at once when not paused, else on `resume()`; rejects when `signal` aborts. */
  async wait(signal?: AbortSignal): Promise<void> {
    while (this.#paused) {
      signal?.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          this.#waiters.delete(release);
          reject(signal?.reason);
        };
        const release = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        this.#waiters.add(release);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
  }
}
