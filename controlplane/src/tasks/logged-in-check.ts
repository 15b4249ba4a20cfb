import type { ImageCodec } from '@clawdie/jail-service/images';
import type { Clock } from '../clock.js';
import { WaitEngine } from '../wait/wait-engine.js';
import type { PageProbe } from '../wait/wait-types.js';
import { type BrowserRunTaskInput, loggedInConditions } from './task-input.js';

/**
 * Evaluates a task's `logged_in_check` with the wait engine once start_url has loaded: true when
 * its conditions hold within `timeout_ms` (default 2 s, for a redirect to settle). No check: true.
 */
export async function passesLoggedInCheck(
  input: BrowserRunTaskInput,
  probe: PageProbe,
  clock: Clock,
  images: ImageCodec,
  signal?: AbortSignal,
): Promise<boolean> {
  const check = input.logged_in_check;
  if (!check) return true;
  const engine = new WaitEngine({ clock, images });
  const handle = engine.start({
    conditions: loggedInConditions(check),
    timeoutMs: check.timeout_ms ?? 2000,
    target: { probe },
    ...(signal ? { signal } : {}),
  });
  const outcome = await handle.outcome;
  return outcome.status === 'resolved';
}
