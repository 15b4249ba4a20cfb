// The heartbeat of the fleet: every interval, each registered host's hostd is asked for its
// clones with that host's own token; the answer (leased clones) or the failure is recorded on the
// host's row, so every controlplane on the database sees the same picture. A host that keeps
// failing goes `down` once its last good heartbeat is older than the registry's staleMs.
import type { Clone } from '@clawdie/hostd/api';
import { HostdClient, type HostdClientOptions } from '@clawdie/hostd/client';
import type { Logger } from 'pino';
import type { HostRepository } from '../platform/store/host-repository.js';
import type { HostRegistry } from './host-registry.js';

/** The task id hostd gives a warm clone no task holds yet. */
const WARM_POOL = 'warm-pool';

/**
 * A host's health as this monitor saw it change: `up` the first time it is seen up, `lost` when it
 * goes from up to not up (down or unknown), `returned` when it is up again.
 */
export type HostHealthChange = { host: string; to: 'up' | 'lost' | 'returned'; detail: string };

export interface HostMonitorDeps {
  registry: Pick<HostRegistry, 'endpoint' | 'list'>;
  store: Pick<HostRepository, 'list' | 'beat'>;
  logger: Logger;
  now: () => number;
  /** Per health request (default 3 s): a host that hangs counts as failed. */
  timeoutMs?: number;
  fetch?: HostdClientOptions['fetch'];
  /** Awaited after a round for each host first seen up, lost, or back (a rejection is logged). */
  onChange?: (change: HostHealthChange) => Promise<void> | void;
  /**
   * Awaited after each good heartbeat with every clone the host reported (warm ones too), e.g. to
   * reap the leases of controlplanes that are gone; a rejection is logged.
   */
  onClones?: (host: string, clones: readonly Clone[]) => Promise<void>;
}

export interface HostMonitor {
  /** Asks every host once, in parallel; resolves when every answer is recorded. */
  beatAll(): Promise<void>;
  /** Beats every `intervalMs` until `stop()` (which waits for the round in flight). */
  start(intervalMs: number): void;
  stop(): Promise<void>;
}

export function createHostMonitor(deps: HostMonitorDeps): HostMonitor {
  let timer: NodeJS.Timeout | null = null;
  let round: Promise<void> = Promise.resolve();

  async function beatOne(name: string): Promise<void> {
    const clones = await listAndRecord(name);
    if (!clones || !deps.onClones) return;
    try {
      await deps.onClones(name, clones);
    } catch (error) {
      deps.logger.error({ err: error, host: name }, 'handling a jail host’s clones failed');
    }
  }

  /** The host's clones, recorded as its heartbeat; null (a missed heartbeat) when it fails. */
  async function listAndRecord(name: string): Promise<Clone[] | null> {
    try {
      const { url, token } = await deps.registry.endpoint(name);
      const client = new HostdClient({
        baseUrl: url,
        token,
        timeoutMs: deps.timeoutMs ?? 3000,
        ...(deps.fetch ? { fetch: deps.fetch } : {}),
      });
      // Leased clones only: the warm pool is the host's own business, not load.
      const clones = await client.listClones();
      const leased = clones.filter((clone) => clone.taskId !== WARM_POOL).length;
      await deps.store.beat(name, { at: deps.now(), clones: leased });
      return clones;
    } catch (error) {
      const message = (error as Error).message;
      deps.logger.warn({ host: name, err: message }, 'jail host missed a heartbeat');
      await deps.store
        .beat(name, { at: deps.now(), error: message.slice(0, 500) })
        .catch((failure: unknown) =>
          deps.logger.error({ host: name, err: failure }, 'could not record a missed heartbeat'),
        );
      return null;
    }
  }

  // Health after the last round, to tell changes; a host first seen is not a change.
  const last = new Map<string, boolean>();
  const beatAll = async () => {
    const hosts = await deps.store.list();
    await Promise.all(hosts.map((host) => beatOne(host.name)));
    for (const view of await deps.registry.list()) {
      const up = view.health === 'up';
      const before = last.get(view.name);
      last.set(view.name, up);
      if (before === up || (before === undefined && !up)) continue;
      const change: HostHealthChange = {
        host: view.name,
        to: before === undefined ? 'up' : up ? 'returned' : 'lost',
        detail: up
          ? 'answers again'
          : `no good heartbeat since ${view.heartbeatAt === null ? 'ever' : new Date(view.heartbeatAt).toISOString()}${view.lastError ? ` (${view.lastError})` : ''}`,
      };
      try {
        await deps.onChange?.(change);
      } catch (error) {
        deps.logger.error({ err: error, host: view.name }, 'handling a jail host change failed');
      }
    }
  };

  return {
    beatAll,
    start(intervalMs) {
      if (timer) return;
      timer = setInterval(() => {
        round = round
          .then(beatAll)
          .catch((error: unknown) =>
            deps.logger.error({ err: error }, 'fleet heartbeat round failed'),
          );
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await round;
    },
  };
}
