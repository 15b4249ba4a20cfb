import type { Logger } from 'pino';
import type { LoopEvent } from '../agent/loop/loop-types.js';

/**
 * A subscriber that keeps what it is told (the trace rows and screenshot files, the audit, the
 * numbered SSE log). Recorders are fixed when the stream is made and run in that order for every
 * event; one that returns a promise is awaited before the next recorder and before the loop goes
 * on, so nothing reads a step before it is stored. Must not throw or reject (log instead).
 */
export type RunRecorder = (event: LoopEvent) => void | Promise<void>;

/** A subscriber that only looks (progress lines, MCP progress, stuck notices). Must not throw. */
export type RunListener = (event: LoopEvent) => void;

/** What a subscriber of one run sees: its events from now on. */
export interface RunEvents {
  /** Calls `listener` after the recorders, for each event published from now on; returns the unsubscribe. */
  subscribe(listener: RunListener): () => void;
}

/**
 * The one typed event stream of a task run, with one sink (`publish`, the loop's `emit`). Events
 * are delivered one at a time in the order they were published: each to every recorder in order
 * (awaited when it returns a promise), then to every listener. An event published while an earlier
 * one is still being recorded waits its turn; with nothing in flight, delivery is synchronous.
 */
export class RunStream implements RunEvents {
  readonly #recorders: readonly RunRecorder[];
  readonly #listeners = new Set<RunListener>();
  readonly #logger: Logger;
  /** The delivery in flight, if any: the next event waits for it. */
  #tail: Promise<void> | null = null;

  constructor(recorders: readonly RunRecorder[], logger: Logger) {
    this.#recorders = recorders;
    this.#logger = logger;
  }

  subscribe(listener: RunListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Delivers `event`; resolves once every recorder has kept it and every listener has seen it. */
  publish(event: LoopEvent): Promise<void> {
    const pending = this.#tail
      ? this.#tail.then(() => this.#deliver(event, 0))
      : this.#deliver(event, 0);
    if (!pending) return Promise.resolve();
    const tail = pending.catch((error: unknown) => {
      this.#logger.error({ err: error, event: event.type }, 'a task event recorder failed');
    });
    this.#tail = tail;
    void tail.then(() => {
      if (this.#tail === tail) this.#tail = null;
    });
    return tail;
  }

  /** Recorders from `from` on, then the listeners; a promise only when a recorder returned one. */
  #deliver(event: LoopEvent, from: number): Promise<void> | undefined {
    for (let index = from; index < this.#recorders.length; index++) {
      const recorded = this.#recorders[index]?.(event);
      if (recorded) return recorded.then(() => this.#deliver(event, index + 1));
    }
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#logger.error({ err: error, event: event.type }, 'a task event listener threw');
      }
    }
    return undefined;
  }
}
