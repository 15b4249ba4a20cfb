// Browsers from a fleet of jail hosts: each task's clone is placed on a registered host (health,
// state, labels, free slots: placement.ts) and made there by that host's own hostd provider,
// which audits it and destroys it on release. A host's load is the larger of the leases this
// controlplane holds on it and the leased clones its last heartbeat reported (other
// controlplanes' included). A placement that fails on the host is not retried elsewhere.

import type { BrowserLease, BrowserProvider } from '../browser/provider/browser-provider.js';
import { AppError } from '../errors.js';
import type { HostRegistry } from './host-registry.js';
import { type PlacementRequest, placeTask } from './placement.js';

export interface FleetBrowserProviderDeps {
  registry: Pick<HostRegistry, 'list' | 'endpoint'>;
  /** The provider for one host (hostd-browser-provider over a client with its URL and token). */
  providerFor(host: string, endpoint: { url: string; token: string }): BrowserProvider;
  /** Tasks this controlplane runs at once, over every host. */
  concurrency: number;
  /** Labels every task of this controlplane requires (e.g. `region=eu`); default none. */
  labels?: Readonly<Record<string, string>>;
}

export interface FleetBrowserProvider extends BrowserProvider {
  /** This controlplane's leases per host, now. */
  leases(): ReadonlyMap<string, number>;
}

export function createFleetBrowserProvider(deps: FleetBrowserProviderDeps): FleetBrowserProvider {
  const held = new Map<string, number>();
  const providers = new Map<string, { key: string; provider: BrowserProvider }>();

  const count = (host: string, delta: number) => {
    const next = (held.get(host) ?? 0) + delta;
    if (next > 0) held.set(host, next);
    else held.delete(host);
  };

  async function providerOf(host: string): Promise<BrowserProvider> {
    const endpoint = await deps.registry.endpoint(host);
    const key = `${endpoint.url}\u0000${endpoint.token}`;
    const known = providers.get(host);
    if (known?.key === key) return known.provider;
    const provider = deps.providerFor(host, endpoint);
    providers.set(host, { key, provider });
    return provider;
  }

  /** Counts the lease in the same turn as the choice, so two starting tasks never share a slot. */
  async function place(request: PlacementRequest): Promise<string> {
    const hosts = await deps.registry.list();
    const host = placeTask(
      hosts.map((view) => ({ ...view, inUse: Math.max(held.get(view.name) ?? 0, view.clones) })),
      request,
    );
    count(host, 1);
    return host;
  }

  return {
    concurrency: deps.concurrency,
    leases: () => new Map(held),
    async acquire(request): Promise<BrowserLease> {
      request.signal?.throwIfAborted();
      const placement = {
        display: request.display === true,
        ...(deps.labels ? { labels: deps.labels } : {}),
      };
      const host = await place(placement);
      let lease: BrowserLease;
      try {
        lease = await (await providerOf(host)).acquire(request);
      } catch (error) {
        count(host, -1);
        if (error instanceof AppError) throw error;
        throw new AppError('OPERATOR_UNAVAILABLE', `host ${host}: ${(error as Error).message}`, {
          cause: error,
        });
      }
      let released: Promise<void> | null = null;
      return {
        ...lease,
        id: `${host}/${lease.id}`,
        release() {
          released ??= lease.release().finally(() => count(host, -1));
          return released;
        },
        ...(lease.rebind ? { rebind: (taskId: string | null) => lease.rebind?.(taskId) } : {}),
      };
    },
  };
}
