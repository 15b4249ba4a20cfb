// Browsers from a fleet of jail hosts: each task's clone is placed on a registered host (health,
// state, labels, free slots: placement.ts) and made there by that host's own hostd provider,
// which audits it and destroys it on release. A host's load is the larger of the leases this
// controlplane holds on it and the leased clones its last heartbeat reported (other
// controlplanes' included). That view can be stale (replicas placing at once), so each create
// sends the host's capacity and hostd refuses past it (HOST_FULL): the host then counts as full
// for a poll and the task is placed again, elsewhere or after waiting for a slot. A placement
// that fails on the host otherwise is not retried elsewhere.
// When the heartbeat loses a host, every browser call of its leases (in flight or later) fails
// HOST_LOST, so their tasks end at once; the clones a release could not destroy there are
// destroyed when the host answers again. A browser call goes through the host's hostd (its
// relay), so a host that stops answering fails it before the heartbeat has decided: when the
// call fails OPERATOR_UNAVAILABLE and the host does not answer either, the call waits for the
// heartbeat's verdict (HOST_LOST) for up to `lossGraceMs`.
import { setTimeout as delay } from 'node:timers/promises';
import type { BrowserOperator } from '../browser/operator/browser-operator.js';
import type { BrowserLease, BrowserProvider } from '../browser/provider/browser-provider.js';
import { AppError, OperatorError } from '../errors.js';
import type { HostHealthChange } from './host-monitor.js';
import type { HostRegistry } from './host-registry.js';
import { choosePlacement, type PlacementRequest } from './placement.js';

const DEFAULT_PLACEMENT_WAIT_MS = 60_000;
/** Between looks at the hosts while waiting for a slot (heartbeats refresh other hosts' loads). */
const SLOT_POLL_MS = 500;

export interface FleetBrowserProviderDeps {
  registry: Pick<HostRegistry, 'list' | 'endpoint'>;
  /** The provider for one host (hostd-browser-provider over a client with its URL and token). */
  providerFor(host: string, endpoint: { url: string; token: string }): BrowserProvider;
  /** Tasks this controlplane runs at once, over every host. */
  concurrency: number;
  /** Labels every task of this controlplane requires (e.g. `region=eu`); default none. */
  labels?: Readonly<Record<string, string>>;
  /** How long a task waits for a slot while every fitting host is full (default 60 s). */
  placementWaitMs?: number;
  /**
   * Ends the leases on a host that no live controlplane holds (orphan-clones.ts), this one's own
   * too: called when this controlplane first sees the host up, or sees it back, holding no lease
   * there, so any of its own there is a clone whose creation it never heard back about. Live
   * replicas' leases stay; the heartbeat reaps gone replicas' on every round besides.
   */
  revokeOrphans(host: string, endpoint: { url: string; token: string }): Promise<void>;
  /** Whether the host's hostd answers now (one bounded health call). Default: assume it does. */
  hostAnswers?(host: string): Promise<boolean>;
  /** How long a failed call on a silent host waits for the heartbeat to lose it (staleness + a beat). */
  lossGraceMs?: number;
}

export interface FleetBrowserProvider extends BrowserProvider {
  /** This controlplane's leases per host, now. */
  leases(): ReadonlyMap<string, number>;
  /** The heartbeat's verdict on a host (host-monitor.ts `onChange`). */
  hostChanged(change: HostHealthChange): Promise<void>;
}

/** One lease on a host, as the fleet tracks it until its clone is gone. */
interface Held {
  inner: BrowserLease;
  lose(error: OperatorError): void;
  released: boolean;
}

export function createFleetBrowserProvider(deps: FleetBrowserProviderDeps): FleetBrowserProvider {
  const held = new Map<string, Set<Held>>();
  /** Leases released while their host was lost: their clones are destroyed when it returns. */
  const toReap = new Map<string, Set<Held>>();
  const providers = new Map<string, { key: string; provider: BrowserProvider }>();
  const on = (map: Map<string, Set<Held>>, host: string) => {
    const set = map.get(host) ?? new Set<Held>();
    map.set(host, set);
    return set;
  };
  const lost = new Set<string>();
  /** Hosts that refused a clone as full (HOST_FULL), until when they count as full. */
  const fullUntil = new Map<string, number>();

  async function providerOf(host: string): Promise<BrowserProvider> {
    const endpoint = await deps.registry.endpoint(host);
    const key = `${endpoint.url}\u0000${endpoint.token}`;
    const known = providers.get(host);
    if (known?.key === key) return known.provider;
    const provider = deps.providerFor(host, endpoint);
    providers.set(host, { key, provider });
    return provider;
  }

  // Resolved (and renewed) whenever a lease of this controlplane ends: a slot may be free.
  const nextFree = () => {
    let resolve: () => void = () => undefined;
    const promise = new Promise<void>((done) => {
      resolve = done;
    });
    return { promise, resolve: () => resolve() };
  };
  let freed = nextFree();
  const slotFreed = (host: string) => {
    fullUntil.delete(host);
    freed.resolve();
    freed = nextFree();
  };

  /**
   * Chooses and counts a slot in the same turn, so two starting tasks never share a slot. While
   * the only obstacle is that fitting hosts are full, waits for a slot (a lease here ending, or a
   * heartbeat showing one elsewhere) until `deadline`; a task no host can ever take fails at
   * once. Returns the host and its capacity (the most leases hostd is to allow there).
   */
  async function place(
    request: PlacementRequest,
    slot: Held,
    deadline: number,
    signal?: AbortSignal,
  ) {
    for (;;) {
      const hosts = await deps.registry.list();
      const now = Date.now();
      const placed = choosePlacement(
        hosts.map((view) => ({
          ...view,
          inUse:
            (fullUntil.get(view.name) ?? 0) > now
              ? view.capacity
              : Math.max(held.get(view.name)?.size ?? 0, view.clones),
        })),
        request,
      );
      if ('host' in placed) {
        on(held, placed.host).add(slot);
        const capacity = hosts.find((view) => view.name === placed.host)?.capacity;
        return { host: placed.host, capacity };
      }
      const left = deadline - Date.now();
      if (!placed.full || left <= 0) throw new AppError('FLEET_NO_HOST', placed.refusal);
      await Promise.race([
        freed.promise,
        delay(Math.min(left, SLOT_POLL_MS), undefined, { signal }),
      ]);
    }
  }

  /**
   * A call's failure, or HOST_LOST when the host went silent and the heartbeat loses it within
   * the grace: the task then ends as its host's, and its clone is reaped when the host is back.
   */
  async function verdict(host: string, error: unknown, gone: Promise<never>): Promise<never> {
    const unavailable = error instanceof OperatorError && error.code === 'OPERATOR_UNAVAILABLE';
    if (!unavailable || !deps.hostAnswers || (await deps.hostAnswers(host))) throw error;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(error), deps.lossGraceMs ?? 0);
    });
    return Promise.race([gone, grace]).finally(() => clearTimeout(timer));
  }

  function unhold(host: string, slot: Held) {
    held.get(host)?.delete(slot);
    if (held.get(host)?.size === 0) held.delete(host);
  }

  return {
    concurrency: deps.concurrency,
    leases: () => new Map([...held].map(([host, set]) => [host, set.size])),
    async hostChanged(change) {
      if (change.to === 'up') {
        if ((held.get(change.host)?.size ?? 0) === 0)
          await deps.revokeOrphans(change.host, await deps.registry.endpoint(change.host));
        return;
      }
      if (change.to === 'lost') {
        lost.add(change.host);
        const error = new OperatorError(
          'HOST_LOST',
          `jail host ${change.host} stopped answering: ${change.detail}`,
        );
        for (const slot of held.get(change.host) ?? []) slot.lose(error);
        return;
      }
      lost.delete(change.host);
      const pending = [...(toReap.get(change.host) ?? [])];
      toReap.delete(change.host);
      if ((held.get(change.host)?.size ?? 0) === 0)
        await deps.revokeOrphans(change.host, await deps.registry.endpoint(change.host));
      // A hostd lease's release may be retried after a failed destroy (it then destroys).
      await Promise.all(pending.map((slot) => slot.inner.release()));
    },
    async acquire(request): Promise<BrowserLease> {
      request.signal?.throwIfAborted();
      // The task's own labels (`host_labels`) on top of the ones every task of this fleet needs.
      const labels = { ...deps.labels, ...request.labels };
      const placement = {
        display: request.display === true,
        ...(Object.keys(labels).length > 0 ? { labels } : {}),
      };
      let fail: (error: OperatorError) => void = () => undefined;
      const gone = new Promise<never>((_resolve, reject) => {
        fail = reject;
      });
      gone.catch(() => undefined);
      const slot: Held = { inner: null as unknown as BrowserLease, lose: fail, released: false };
      const deadline = Date.now() + (deps.placementWaitMs ?? DEFAULT_PLACEMENT_WAIT_MS);
      let host: string;
      for (;;) {
        request.signal?.throwIfAborted();
        const placed = await place(placement, slot, deadline, request.signal);
        host = placed.host;
        try {
          // Placed: the host's own provider makes the clone (it places nothing by labels).
          const { labels: _placed, ...onHost } = request;
          const maxLeases = placed.capacity;
          slot.inner = await (await providerOf(host)).acquire({
            ...onHost,
            ...(maxLeases === undefined ? {} : { maxLeases }),
          });
          break;
        } catch (error) {
          unhold(host, slot);
          // Other controlplanes' clones fill it: full until the next look, the task placed again.
          if (error instanceof AppError && error.code === 'HOST_FULL') {
            fullUntil.set(host, Date.now() + SLOT_POLL_MS);
            continue;
          }
          slotFreed(host);
          if (error instanceof AppError) throw error;
          throw new AppError('OPERATOR_UNAVAILABLE', `host ${host}: ${(error as Error).message}`, {
            cause: error,
          });
        }
      }
      const lease = slot.inner;
      let released: Promise<void> | null = null;
      return {
        ...lease,
        id: `${host}/${lease.id}`,
        operator: racing(lease.operator, gone, (error) => verdict(host, error, gone)),
        release() {
          released ??= lease.release().finally(() => {
            unhold(host, slot);
            slotFreed(host);
            if (lost.has(host)) on(toReap, host).add(slot);
          });
          return released;
        },
        ...(lease.rebind ? { rebind: (taskId: string | null) => lease.rebind?.(taskId) } : {}),
      };
    },
  };
}

/** The operator whose every call also fails as soon as `gone` rejects; failures go by `failed`. */
function racing(
  operator: BrowserOperator,
  gone: Promise<never>,
  failed: (error: unknown) => Promise<never>,
): BrowserOperator {
  const race = <T>(call: Promise<T>) => Promise.race([call.catch(failed), gone]);
  return {
    screenshot: (signal, options) => race(operator.screenshot(signal, options)),
    execute: (actions, signal) => race(operator.execute(actions, signal)),
    state: (signal) => race(operator.state(signal)),
    landing: (action, signal) => race(operator.landing(action, signal)),
  };
}
