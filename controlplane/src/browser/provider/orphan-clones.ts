// Clones no live controlplane of this store holds. Every lease a controlplane takes from hostd
// names it as `<store id>/<instance id>` (lease-holder.ts); the instance registry of its store
// says which of that store's controlplanes still run. A lease of this store whose instance is gone
// (crashed, killed, judged dead by its stale heartbeat) is revoked and its clone destroyed; a live
// replica's never is. A lease this controlplane cannot attribute to its own store is never
// touched: another store's (a controlplane on another data dir or database sharing the hostd,
// whose instances this registry does not list), a holder without a store id (an older
// controlplane), an unnamed lease, or any lease of a hostd older than holders. hostd expires no
// lease by itself: those stay until their controlplane releases them or hostd restarts
// (docs/operations.md, "Leases name their controlplane").
import type { Clone, RevokeAllResponse } from '@clawdie/hostd/api';
import type { HostdClient } from '@clawdie/hostd/client';
import type { Logger } from 'pino';
import type { AuditLog } from '../../governance/audit/audit-log.js';
import { holderName, parseHolder } from './lease-holder.js';

/** Who this controlplane is and who else of its store runs: the instance registry. */
export interface LeaseHolders {
  /** This controlplane's store id (InstanceRepository.storeId). */
  readonly store: string;
  /** This controlplane's instance id. */
  readonly id: string;
  /** The instances of this store registered and live now, this one included. */
  live(): Promise<readonly { id: string }[]>;
}

export interface ReapDeps {
  holders: LeaseHolders;
  audit: AuditLog;
  logger: Logger;
}

export interface ReapOptions {
  /**
   * Also this controlplane's own leases: for a host where it holds none, so any it has there is a
   * clone whose creation it never heard back about.
   */
  own?: boolean;
  /** The jail host, for the logs (fleet). */
  host?: string;
}

/** Revokes the orphans of this store on a hostd; remembers which foreign holders it has logged. */
export interface OrphanReaper {
  /**
   * Revokes on `client`'s hostd the leases among `clones` of this store that no live instance
   * holds, each audited `clone-destroyed` to its task; returns how many. `clones` must be listed
   * BEFORE this reads the registry: a holder on the list registered before it took its lease, so
   * it is in the registry unless it is gone, and a replica that registered a moment ago is never
   * named. Only exactly the holders judged gone are sent, so a lease taken meanwhile is never hit.
   * Leases it cannot attribute to this store are left, logged once per host and holder at info.
   */
  reap(
    client: Pick<HostdClient, 'revokeLeases'>,
    clones: readonly Clone[],
    options?: ReapOptions,
  ): Promise<number>;
}

type Revoked = RevokeAllResponse['revoked'][number];

const REASON_GONE = 'holder replica gone';
const REASON_OWN = 'held by this controlplane, which holds no lease there';

/** Why a lease is not this store's to judge; the info line names it. */
type Foreign =
  | 'another store'
  | 'no store id (older controlplane)'
  | 'unnamed'
  | 'hostd older than holders';

export function createOrphanReaper(deps: ReapDeps): OrphanReaper {
  const { holders } = deps;
  const mine = holderName({ store: holders.store, instance: holders.id });
  const noticed = new Set<string>();
  const notice = (foreign: Map<string, { why: Foreign; tasks: string[] }>, host?: string) => {
    for (const [holder, { why, tasks }] of foreign) {
      const key = `${host ?? ''}\n${holder}`;
      if (noticed.has(key)) continue;
      noticed.add(key);
      deps.logger.info(
        { host, holder, why, tasks },
        `left alone the clones of a lease holder not of this store (${why}): only their own controlplane, or a hostd restart, ends them`,
      );
    }
  };
  return {
    async reap(client, clones, options = {}) {
      const ours = new Set<string>();
      const foreign = new Map<string, { why: Foreign; tasks: string[] }>();
      for (const clone of clones) {
        const holder = clone.holder;
        if (holder === mine) {
          if (options.own) ours.add(holder);
          continue;
        }
        const why =
          holder === null || holder === undefined
            ? absentWhy(holder)
            : foreignWhy(holder, holders.store);
        if (why === null) {
          ours.add(holder as string);
          continue;
        }
        const key = holder ?? `(${why})`;
        const entry = foreign.get(key) ?? { why, tasks: [] };
        entry.tasks.push(clone.taskId);
        foreign.set(key, entry);
      }
      notice(foreign, options.host);
      if (ours.size === 0) return 0;
      const live = new Set((await holders.live()).map((instance) => instance.id));
      const gone = [...ours].filter(
        (holder) => holder === mine || !live.has(parseHolder(holder)?.instance ?? ''),
      );
      if (gone.length === 0) return 0;
      const { revoked } = await client.revokeLeases({ holders: gone, unnamed: false });
      for (const clone of revoked) await record(clone, mine, { ...deps, ...options });
      return revoked.length;
    },
  };
}

/** Null when `holder` names this store; else why it is not this store's to judge. */
function foreignWhy(holder: string, store: string): Foreign | null {
  const parts = parseHolder(holder);
  if (!parts) return 'no store id (older controlplane)';
  return parts.store === store ? null : 'another store';
}

function absentWhy(holder: null | undefined): Foreign {
  return holder === null ? 'unnamed' : 'hostd older than holders';
}

async function record(
  clone: Revoked,
  mine: string,
  options: ReapDeps & ReapOptions,
): Promise<void> {
  const holder = clone.holder ?? null;
  const reason = holder === mine ? REASON_OWN : REASON_GONE;
  options.logger.warn(
    {
      host: options.host,
      clone: clone.name,
      taskId: clone.taskId,
      holder,
      leftovers: clone.leftovers,
    },
    `destroyed a clone no live controlplane of this store holds (${reason})`,
  );
  await options.audit.append({
    type: 'clone-destroyed',
    actor: 'system',
    taskId: clone.taskId,
    data: {
      clone: clone.name,
      leftovers: clone.leftovers,
      holder,
      reason,
      ...(options.host ? { host: options.host } : {}),
    },
  });
}
