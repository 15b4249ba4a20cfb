import type { Clock } from '../../clock.js';
import type { ActiveTakeover } from './takeover-registry.js';

/**
 * The takeover's screen for the link's landing page: one screenshot serves every request for
 * `maxAgeMs` (reloads and previews do not each ask the browser); a failed one is null.
 */
export function createScreenCache(clock: Clock, maxAgeMs = 2000) {
  const taken = new WeakMap<ActiveTakeover, { at: number; jpeg: Promise<Buffer | null> }>();
  return {
    of(takeover: ActiveTakeover): Promise<Buffer | null> {
      const cached = taken.get(takeover);
      if (cached && clock.now() - cached.at < maxAgeMs) return cached.jpeg;
      const jpeg = takeover.screenshot
        ? takeover.screenshot().catch(() => null)
        : Promise.resolve(null);
      taken.set(takeover, { at: clock.now(), jpeg });
      return jpeg;
    },
  };
}
