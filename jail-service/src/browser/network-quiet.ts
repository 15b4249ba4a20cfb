// How long a tab's network has been quiet: no request of any of its frames in flight (issue 24, 2).
// A page signal for the controlplane's settle wait, answered in `GET /state` as `network_idle_ms`.
// A request that never ends (a long poll) keeps it at 0: the wait then relies on pixels alone.
import type { HTTPRequest, Page } from 'puppeteer-core';

export interface NetworkQuiet {
  /** Milliseconds since the last request in flight ended; 0 while any is in flight. */
  idleMs(): number;
}

export function trackNetworkQuiet(
  page: Page,
  now: () => number = () => performance.now(),
): NetworkQuiet {
  const inflight = new Set<HTTPRequest>();
  let quietSince = now();
  const ended = (request: HTTPRequest) => {
    if (inflight.delete(request) && inflight.size === 0) quietSince = now();
  };
  page.on('request', (request) => inflight.add(request));
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return { idleMs: () => (inflight.size > 0 ? 0 : Math.round(now() - quietSince)) };
}
