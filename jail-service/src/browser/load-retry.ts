// A page load that Chromium abandoned because the host's network changed under it is loaded again.
//
// Chromium fails every request in flight with net::ERR_NETWORK_CHANGED when an address appears
// or goes on any interface of its network namespace. A local-mode browser shares the host's
// namespace with hostd, which adds and removes a veth pair and its addresses for every clone, so
// a load can fail for a reason that has nothing to do with the page. A user would press reload;
// the service does it for them, within the caller's time limit.

/** Chromium's error text for a load it abandoned on a network change. */
const NETWORK_CHANGED = /net::ERR_NETWORK_CHANGED\b/;

/** Loads again after a network change at most this many times. */
export const NETWORK_CHANGE_RETRIES = 2;

export interface LoadRetryOptions {
  /** The caller's whole limit in ms: each attempt gets what is left of it. */
  timeoutMs: number;
  now?: () => number;
  /** Told of each abandoned load before it is loaded again. */
  onRetry?: (error: unknown, attempt: number) => void;
}

/** True when `error` is Chromium abandoning a load because the network changed. */
export function isNetworkChange(error: unknown): boolean {
  return NETWORK_CHANGED.test(error instanceof Error ? error.message : String(error));
}

/**
 * Runs `load` with the time left; after a network change, runs it again (at most
 * NETWORK_CHANGE_RETRIES times, and only while time is left). Any other failure, or the last
 * network change, is thrown as it came.
 */
export async function loadRetryingNetworkChange<T>(
  load: (timeoutMs: number) => Promise<T>,
  options: LoadRetryOptions,
): Promise<T> {
  const now = options.now ?? Date.now;
  const deadline = now() + options.timeoutMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return await load(Math.max(1, deadline - now()));
    } catch (error) {
      const left = deadline - now();
      if (!isNetworkChange(error) || attempt >= NETWORK_CHANGE_RETRIES || left <= 0) throw error;
      options.onRetry?.(error, attempt + 1);
    }
  }
}
