// The in-jail jail-service's health probe: the repository's one `/health` probe
// (@clawdie/kit/timing), 2 s per attempt; the FreeBSD fake host injects its own.
import { fetchHealthProbe, type HealthProbe } from '@clawdie/kit/timing';

/** One health probe: true when the service answered 2xx. Must not throw on network errors. */
export type HealthCheck = HealthProbe;

/** The real adapter: `GET <url>/health` with `Authorization: Bearer <token>`, 2 s per attempt. */
export function createFetchHealthCheck(): HealthCheck {
  return fetchHealthProbe(2000);
}
