import { ToolTimeoutError } from '../errors.js';

/** What a bounded call gets: a signal aborted at the deadline and the time left until then. */
export interface TimeoutContext {
  signal: AbortSignal;
  /** Milliseconds left before the call times out (never negative). */
  remainingMs(): number;
}

/**
 * Runs `run` with a deadline. At the deadline the signal is aborted and the returned promise
 * rejects with ToolTimeoutError (code TOOL_TIMEOUT) even if `run` never settles; a late rejection
 * of `run` is swallowed so it cannot surface as an unhandled rejection.
 */
export function withTimeout<T>(
  name: string,
  timeoutMs: number,
  run: (context: TimeoutContext) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const deadline = performance.now() + timeoutMs;
  const context: TimeoutContext = {
    signal: controller.signal,
    remainingMs: () => Math.max(0, deadline - performance.now()),
  };
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      const error = new ToolTimeoutError(name, timeoutMs);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
    let running: Promise<T>;
    try {
      running = run(context);
    } catch (error) {
      clearTimeout(timer);
      reject(error);
      return;
    }
    running.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
