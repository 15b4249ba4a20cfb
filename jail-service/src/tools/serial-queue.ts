/** Runs async operations one at a time in arrival order; a failure does not block later ones. */
export interface SerialQueue {
  run<T>(fn: () => Promise<T>): Promise<T>;
}

export function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(fn: () => Promise<T>): Promise<T> {
      const result = tail.then(fn, fn);
      tail = result.then(
        () => undefined,
        () => undefined,
      );
      return result;
    },
  };
}
