// The one `sleep` of the repository (controlplane, hostd, jail-service import it).

/**
 * Resolves after `ms`; when `signal` is aborted (before or during the wait) rejects with the
 * signal's reason and clears the timer. Callers that want "stop waiting, no error" add
 * `.catch(() => {})`.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
