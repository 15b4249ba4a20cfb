// Clones no live controlplane holds. Every lease a controlplane takes from hostd names it (its
// instance id: the holder); the instance registry says which controlplanes still run. A lease
// whose holder is gone (crashed, killed, judged dead by its stale heartbeat) is revoked and its
// clone destroyed; a live replica's never is. Unnamed leases (taken by a controlplane older than
// holders) are revoked only when no other controlplane is registered and live, since one of them
// may be an older replica still running its task.
import type { Clone, RevokeAllResponse } from '@clawdie/hostd/api';
import type { HostdClient } from '@clawdie/hostd/client';
import type { Logger } from 'pino';
import type { AuditLog } from '../../governance/audit/audit-log.js';

/** Who this controlplane is and who else runs: the instance registry (its DataDirOwner). */
export interface LeaseHolders {
  /** This controlplane's instance id: the holder it names on every lease it takes. */
  readonly id: string;
  /** The instances registered and live now, this one included. */
  live(): Promise<readonly { id: string }[]>;
}

export interface ReapOptions {
  holders: LeaseHolders;
  audit: AuditLog;
  logger: Logger;
  /**
   * Also this controlplane's own leases: for a host where it holds none, so any it has there is a
   * clone whose creation it never heard back about.
   */
  own?: boolean;
  /** The jail host, for the logs (fleet). */
  host?: string;
}

type Revoked = RevokeAllResponse['revoked'][number];

const REASON_GONE = 'holder replica gone';
const REASON_OWN = 'held by this controlplane, which holds no lease there';
const REASON_UNNAMED = 'unnamed lease, no other controlplane live';

/**
 * Revokes on `client`'s hostd the leases among `clones` that no live controlplane holds, each
 * audited `clone-destroyed` to its task; returns how many. `clones` must be listed BEFORE this
 * reads the registry: a holder on the list registered before it took its lease, so it is in the
 * registry unless it is gone, and a replica that registered a moment ago is never named. Only
 * exactly the holders judged gone are sent, so a lease taken meanwhile is never hit.
 */
export async function reapOrphanClones(
  client: Pick<HostdClient, 'revokeLeases' | 'revokeAllLeases'>,
  clones: readonly Clone[],
  options: ReapOptions,
): Promise<number> {
  const { holders } = options;
  const named = new Set<string>();
  let unnamed = false;
  // A hostd older than holders reports none: every lease there is unnamed.
  let legacy = false;
  for (const clone of clones) {
    if (clone.holder === undefined) legacy = true;
    if (clone.holder) named.add(clone.holder);
    else unnamed = true;
  }
  if (!options.own) named.delete(holders.id);
  if (named.size === 0 && !unnamed) return 0;
  const live = new Set((await holders.live()).map((instance) => instance.id));
  const alone = [...live].every((id) => id === holders.id);
  const gone = [...named].filter((holder) => holder === holders.id || !live.has(holder));
  const withUnnamed = unnamed && alone;
  if (gone.length === 0 && !withUnnamed) return 0;
  const { revoked } = legacy
    ? await client.revokeAllLeases()
    : await client.revokeLeases({ holders: gone, unnamed: withUnnamed });
  for (const clone of revoked) await record(clone, options);
  return revoked.length;
}

async function record(clone: Revoked, options: ReapOptions): Promise<void> {
  const holder = clone.holder ?? null;
  const reason =
    holder === null ? REASON_UNNAMED : holder === options.holders.id ? REASON_OWN : REASON_GONE;
  options.logger.warn(
    {
      host: options.host,
      clone: clone.name,
      taskId: clone.taskId,
      holder,
      leftovers: clone.leftovers,
    },
    `destroyed a clone no live controlplane holds (${reason})`,
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
