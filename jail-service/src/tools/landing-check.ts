// The `expect` re-check of an action: the landing now against the one the controlplane decided on
// (POST /landing). Refused with LANDING_CHANGED, nothing dispatched, when they differ.
import type { Action, LandingExpect, LandingResponse } from '@clawdie/kit/jail-api';
import { LandingChangedError } from '../errors.js';
import type { PageDriver } from '../page-driver.js';

/** Why `now` is not the landing `expect` describes, or null when it still is. */
export function landingDifference(expect: LandingExpect, now: LandingResponse): string | null {
  if (now.document_id !== expect.document_id)
    return `the page shows another document now (${now.url})`;
  const origins = now.target?.frames.map((frame) => frame.origin) ?? [];
  const same =
    origins.length === expect.origins.length &&
    origins.every((origin, index) => origin === expect.origins[index]);
  if (!same) return `the frames there are now ${origins.join(' > ') || 'none'}`;
  const destination = now.target?.destination?.url ?? null;
  if (destination !== expect.destination)
    return `it now leads to ${destination ?? 'nowhere'} instead of ${expect.destination ?? 'nowhere'}`;
  return null;
}

/** Throws LandingChangedError unless `action` (with `expect`) still lands where expected. */
export async function checkLanding(driver: PageDriver, action: Action): Promise<void> {
  const expect = 'expect' in action ? action.expect : undefined;
  if (!expect) return;
  const difference = landingDifference(expect, await driver.landing(action));
  if (difference) throw new LandingChangedError(`${action.type} not run: ${difference}`);
}
