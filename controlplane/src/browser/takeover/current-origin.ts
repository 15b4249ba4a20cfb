// The origin the clone shows now, to prefill "save this login" at hand-back: read live from the
// clone's jail-service (`GET /signals`, the page's URL), else the origin the detector saw when the
// takeover began, else none. Only http(s) origins: about:blank or a data: URL prefill nothing.
import type { ActiveTakeover } from './takeover-registry.js';

/** How long the page waits for the clone before falling back to the takeover's first origin. */
const LIVE_TIMEOUT_MS = 1500;

/** `https://host[:port]` of `value`, or null when it is not an http(s) URL or origin. */
export function httpOrigin(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** Never rejects: a busy or gone clone answers with the takeover's first origin (or null). */
export async function currentOrigin(
  active: Pick<ActiveTakeover, 'client' | 'origin'>,
  timeoutMs = LIVE_TIMEOUT_MS,
): Promise<string | null> {
  const known = httpOrigin(active.origin);
  if (!active.client) return known;
  try {
    const signals = await active.client.signals([], AbortSignal.timeout(timeoutMs));
    return httpOrigin(signals.url_origin) ?? known;
  } catch {
    return known;
  }
}
