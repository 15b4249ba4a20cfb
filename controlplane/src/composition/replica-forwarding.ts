import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import { loadAuditKey } from '../governance/audit/audit-key.js';
import type { ForwardVerifier } from '../ingress/http/replica-forward/accept-forwarded.js';
import { deriveForwardKey } from '../ingress/http/replica-forward/forward-signature.js';
import {
  createReplicaForward,
  type ReplicaForward,
} from '../ingress/http/replica-forward/forward-to-owner.js';
import type { DataDirOwner } from '../platform/ownership/data-dir-owner.js';
import type { TaskRepository } from '../platform/store/task-repository.js';
import { createKeptSessionLocator } from '../tasks/kept-session-place.js';

export interface ReplicaForwarding {
  toOwner: ReplicaForward;
  verifier: ForwardVerifier;
}

/**
 * Forwarding between the replicas of one store (live views, takeovers, trace files), keyed with
 * a key derived from the audit key every replica must share (`keys/audit.key`, checked at start).
 * Forwards go only to the URLs live replicas recorded in the instances table.
 */
export function createReplicaForwarding(deps: {
  auditKeyFile: string;
  owner: DataDirOwner;
  repository: TaskRepository;
  clock: Clock;
  logger: Logger;
}): ReplicaForwarding {
  const key = deriveForwardKey(loadAuditKey(deps.auditKeyFile).key);
  const self = deps.owner.id;
  return {
    toOwner: createReplicaForward({
      self,
      key,
      repository: deps.repository,
      live: () => deps.owner.live(),
      locate: createKeptSessionLocator({
        self,
        repository: deps.repository,
        live: () => deps.owner.live(),
      }),
      now: () => deps.clock.now(),
      logger: deps.logger,
    }),
    verifier: { self, key, now: () => deps.clock.now() },
  };
}
