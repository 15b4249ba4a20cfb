// Where a task's clone goes: among the hosts that are up, active, carry every label the task
// needs and have a free slot, the least loaded (by share of capacity, then free slots, then
// name). When none fits, the refusal says what ruled each host out.
import { AppError } from '../errors.js';
import type { HostView } from './host-registry.js';

export interface PlacementRequest {
  /** A `surface: desktop` task needs a host with displays (label `display=yes`). */
  display: boolean;
  /** Labels the task requires, exactly (e.g. `os=freebsd`, `region=eu`). */
  labels?: Readonly<Record<string, string>>;
}

/** A host with the clones this controlplane knows to be on it now (its own leases included). */
export type PlacementCandidate = Pick<
  HostView,
  'name' | 'labels' | 'capacity' | 'state' | 'health'
> & {
  inUse: number;
};

export function requiredLabels(request: PlacementRequest): Record<string, string> {
  return { ...request.labels, ...(request.display ? { display: 'yes' } : {}) };
}

/** The chosen host's name; throws AppError FLEET_NO_HOST naming why each host was ruled out. */
export function placeTask(hosts: readonly PlacementCandidate[], request: PlacementRequest): string {
  const placed = choosePlacement(hosts, request);
  if ('host' in placed) return placed.host;
  throw new AppError('FLEET_NO_HOST', placed.refusal);
}

/**
 * The host, or why none fits; `full`: some host that is up, active and carries the labels only
 * lacks a free slot now (waiting for one can help).
 */
export function choosePlacement(
  hosts: readonly PlacementCandidate[],
  request: PlacementRequest,
): { host: string } | { refusal: string; full: boolean } {
  const wanted = Object.entries(requiredLabels(request));
  const ruledOut: string[] = [];
  const fits: PlacementCandidate[] = [];
  for (const host of hosts) {
    const why =
      host.health !== 'up'
        ? `${host.health === 'down' ? 'down' : 'no heartbeat yet'}`
        : host.state !== 'active'
          ? host.state
          : wanted.find(([key, value]) => host.labels[key] !== value)
            ? `lacks ${wanted
                .filter(([key, value]) => host.labels[key] !== value)
                .map(([key, value]) => `${key}=${value}`)
                .join(',')}`
            : host.inUse >= host.capacity
              ? `full (${host.inUse}/${host.capacity})`
              : null;
    if (why) ruledOut.push(`${host.name}: ${why}`);
    else fits.push(host);
  }
  const best = fits.sort(byLoad)[0];
  if (best) return { host: best.name };
  return {
    refusal:
      hosts.length === 0
        ? 'no jail host is registered (clawdie hosts add)'
        : `no jail host can take the task (${ruledOut.join('; ')})`,
    full: ruledOut.some((why) => why.includes(': full (')),
  };
}

function byLoad(a: PlacementCandidate, b: PlacementCandidate): number {
  const share = a.inUse / a.capacity - b.inUse / b.capacity;
  if (share !== 0) return share;
  const free = b.capacity - b.inUse - (a.capacity - a.inUse);
  if (free !== 0) return free;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
