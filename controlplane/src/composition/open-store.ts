import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { AuditTrail } from '../governance/audit/audit-log.js';
import { openAuditTrail } from '../governance/audit/open-audit-trail.js';
import {
  type DataDirOwner,
  type LivenessTimes,
  registerInstance,
} from '../platform/ownership/data-dir-owner.js';
import { tightenDataDir } from '../platform/store/data-dir-modes.js';
import { openStores } from '../platform/store/open-stores.js';
import type { Stores } from '../platform/store/stores.js';
import type { TaskRepository } from '../platform/store/task-repository.js';
import type { CloseStack } from './close-stack.js';
import { startReplicaSweep, sweepGoneOwners } from './replica-sweep.js';

export interface OpenedStore {
  /** Every store port (SQLite or PostgreSQL) and the notify channel. */
  stores: Stores;
  /** The task traces of this process: tasks it creates carry `owner.id`. */
  repository: TaskRepository;
  /** The hash-chained, keyed audit log in the same database. */
  audit: AuditTrail;
  /** Who owns this process's tasks: the data dir's claim (SQLite) or the replica (PostgreSQL). */
  owner: DataDirOwner;
}

/**
 * Opens the store the config names (data dir tightened to owner-only first), the keyed audit
 * trail, and marks the tasks of controlplanes that are gone as INTERRUPTED (audited). On
 * PostgreSQL this process also registers as a replica (several servers may), owns its tasks as
 * that replica, refuses an audit key the shared chain does not verify with, and sweeps the tasks
 * of replicas that stopped beating at every heartbeat. Releases go on `stack` as they are opened.
 */
export async function openStore(
  config: Readonly<Config>,
  local: DataDirOwner,
  deps: { logger: Logger; clock: Clock; stack: CloseStack; liveness?: LivenessTimes },
): Promise<OpenedStore> {
  const { logger } = deps;
  const tightened = tightenDataDir(config.dataDir, config.databasePath);
  if (tightened.length > 0)
    logger.warn({ changes: tightened }, 'tightened data dir permissions to owner-only');
  const stores = await openStores(config, { logger });
  deps.stack.defer(stores.close);
  const shared = stores.backend === 'postgres';
  const owner = shared
    ? await registerInstance(stores.instances, {
        kind: local.kind,
        dataDir: config.dataDir,
        logger,
        clock: deps.clock,
        ...deps.liveness,
        exclusive: false,
      })
    : local;
  if (shared) deps.stack.defer(owner.close);
  const repository = stores.tasks({ owner: owner.id });
  const audit = await openAuditTrail(stores.audit, {
    keyFile: config.auditKeyFile,
    clock: deps.clock,
    mode: 'append',
    logger,
    shared,
  });
  deps.stack.defer(audit.close);
  const sweep = { owner, repository, audit, clock: deps.clock, logger, notify: stores.notify };
  await sweepGoneOwners(sweep);
  if (shared) deps.stack.defer(startReplicaSweep(sweep, deps.liveness?.heartbeatMs));
  return { stores, repository, audit, owner };
}
