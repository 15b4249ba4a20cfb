// One task's store writes, one after another in the order they were asked for: the store port
// returns Promises (an asynchronous store may answer late), and the trace must still be written
// in order — a step's row before its update, its actions and its logs, every step before the end.
import type { Logger } from 'pino';

/**
 * A write queue of one task. `run` starts a write once every earlier one has settled and hands the
 * caller its outcome; `queue` does the same for a write nobody waits for (a failure is logged, never
 * thrown). A failed write does not stop the ones after it.
 */
export class SerialWrites {
  readonly #logger: Logger;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Runs `write` after every earlier write; resolves or rejects with it. */
  run<T>(write: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(() => write());
    this.#tail = result.catch(() => undefined);
    return result;
  }

  /** Runs `write` after every earlier write; resolves once it is done (a failure: `what` logged). */
  queue(write: () => Promise<unknown>, what: string): Promise<void> {
    return this.run(write).then(
      () => undefined,
      (error: unknown) => this.#logger.error({ err: error }, what),
    );
  }
}
