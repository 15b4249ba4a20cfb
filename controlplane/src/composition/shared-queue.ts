// The shared task queue of PostgreSQL replicas (pg-boss in the store's database), for the task
// service of a long-lived controlplane: `server` and `embedded` (tests). A `clawdie run` or
// `clawdie mcp` process runs its tasks itself, as on SQLite: it would otherwise take other
// replicas' tasks and abort them when it exits. pg-boss is imported only when the queue opens.
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { AuditLog } from '../governance/audit/audit-log.js';
import type { NotifyChannel } from '../platform/notify/notify-channel.js';
import { defaultHeartbeatMs } from '../platform/ownership/data-dir-owner.js';
import type { InstanceKind } from '../platform/store/instance-repository.js';
import type { Stores } from '../platform/store/stores.js';
import type { SharedQueueOptions } from '../tasks/shared-task-queue.js';
import type { ReplicaCommands } from '../tasks/task-commands.js';
import type { CloseStack } from './close-stack.js';
import { repeatSweep } from './replica-sweep.js';
import { sweepUndispatched, type UndispatchedSweepDeps } from './undispatched-sweep.js';

/** Opens the queue (closed through `stack`), or undefined where tasks run where they are admitted. */
export async function openSharedQueue(
  config: Readonly<Config>,
  deps: {
    stores: Pick<Stores, 'backend'>;
    role: InstanceKind;
    self: string;
    notify: NotifyChannel;
    replicas: () => ReplicaCommands | undefined;
    logger: Logger;
    stack: CloseStack;
    /** What the sweep of tasks the queue will never run needs (undispatched-sweep.ts). */
    repository: UndispatchedSweepDeps['repository'];
    audit: AuditLog;
    clock: Clock;
    /** How often it sweeps (the replica heartbeat) and the grace of a fresh row. */
    sweep?: { everyMs?: number | undefined; graceMs?: number | undefined } | undefined;
  },
): Promise<SharedQueueOptions | undefined> {
  const longLived = deps.role === 'server' || deps.role === 'embedded';
  if (deps.stores.backend !== 'postgres' || !config.databaseUrl || !longLived) return undefined;
  const { openPgTaskQueue } = await import('../platform/store/pg/pg-task-queue.js');
  const queue = await openPgTaskQueue({ url: config.databaseUrl, logger: deps.logger });
  deps.stack.defer(queue.close);
  const sweep = { ...deps, queue, graceMs: deps.sweep?.graceMs };
  deps.stack.defer(
    repeatSweep(
      () => sweepUndispatched(sweep),
      deps.sweep?.everyMs ?? defaultHeartbeatMs,
      deps.logger,
      'queued tasks the shared queue will not run',
    ),
  );
  return { queue, notify: deps.notify, self: deps.self, replicas: deps.replicas };
}
