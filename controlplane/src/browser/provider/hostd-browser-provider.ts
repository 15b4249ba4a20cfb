// Adapter: a fresh hostd clone per task (create on acquire, destroy on release), each driven by a
// ClawdieBrowserOperator pointed at the clone's own jail-service URL and token (or, with `relay`,
// at hostd's relay to it, with hostd's token). Every call on the
// clone presents its lease. Clone creation and destruction go to the audit, and every egress
// connection the clone's proxy refused under the task's lease is audited live, as it happens,
// with the admin's egress exceptions the clone had recorded at creation.
import type { EgressRefusal, LeasedClone } from '@clawdie/hostd/api';
import { type HostdClient, HostdClientError, relayEndpoint } from '@clawdie/hostd/client';
import type { Logger } from 'pino';
import { OperatorError } from '../../errors.js';
import { appendOrLog } from '../../governance/audit/append-or-log.js';
import type { AuditEvent, AuditLog } from '../../governance/audit/audit-log.js';
import { createClawdieBrowserOperator } from '../operator/clawdie-browser-operator.js';
import {
  type BrowserLease,
  type BrowserProvider,
  type BrowserRequest,
  refuseHostLabels,
} from './browser-provider.js';
import { egressRefusedEvent } from './egress-refusal-audit.js';
import { type EgressRefusalFeed, followEgressRefusals } from './egress-refusal-feed.js';
import { leaseConnections } from './lease-connections.js';

export interface HostdBrowserProviderOptions {
  client: Pick<
    HostdClient,
    'createClone' | 'destroyClone' | 'followEgressRefusals' | 'egressRefusals'
  >;
  logger: Logger;
  /** Tasks running at once, each in its own clone (default 4). */
  concurrency?: number;
  audit?: AuditLog;
  /**
   * Reach each clone's jail-service through this hostd's relay (its URL and token) rather than at
   * the address hostd reports, which only hostd's host routes: for a hostd on another machine.
   */
  relay?: { baseUrl: string; token: string };
  /**
   * The name hostd keeps with each lease: this controlplane's store and instance id
   * (lease-holder.ts), so that another controlplane of its store revokes its leases only once it
   * is gone, and one of another store never (orphan-clones.ts). Default: unnamed.
   */
  holder?: string;
}

export function createHostdBrowserProvider(options: HostdBrowserProviderOptions): BrowserProvider {
  const { client, logger } = options;
  /** Appends a system row; never rejects (a failure is logged). */
  const record = async (event: Omit<AuditEvent, 'actor'>) => {
    if (options.audit) await appendOrLog(options.audit, { actor: 'system', ...event }, logger);
  };

  async function create(request: BrowserRequest) {
    const { taskId, display, maxLeases } = request;
    try {
      return await client.createClone({
        taskId,
        allowedDomains: [...request.allowedDomains],
        ...(display === undefined ? {} : { display }),
        ...(options.holder ? { holder: options.holder } : {}),
        ...(maxLeases === undefined ? {} : { maxLeases }),
      });
    } catch (error) {
      const full = error instanceof HostdClientError && error.code === 'HOST_FULL';
      throw new OperatorError(
        full ? 'HOST_FULL' : 'OPERATOR_UNAVAILABLE',
        `hostd could not create a clone: ${(error as Error).message}`,
        error,
      );
    }
  }

  // The feed hands refusals over synchronously: each row is appended in the background.
  const auditRefusal = (clone: LeasedClone, holder: () => string) => (refusal: EgressRefusal) =>
    void record(egressRefusedEvent(clone.name, holder(), refusal));

  /**
   * Destroys the clone under its lease (verified by hostd), then flushes its last refusals.
   * False when hostd could not be asked (the lease's release may then be called again).
   */
  async function destroy(
    clone: LeasedClone,
    taskId: string,
    feed: EgressRefusalFeed,
  ): Promise<boolean> {
    let outcome: Record<string, unknown>;
    try {
      const { leftovers } = await client.destroyClone(clone);
      outcome = { clone: clone.name, leftovers };
      if (leftovers.length > 0)
        logger.error({ clone: clone.name, leftovers }, 'clone destroyed with leftovers');
    } catch (error) {
      outcome = { clone: clone.name, failed: (error as Error).message };
      logger.error({ err: error, clone: clone.name }, 'clone destroy failed; hostd reconciles it');
    }
    await feed.finish('failed' in outcome ? 0 : 5000);
    await record({ type: 'clone-destroyed', taskId, data: outcome });
    return !('failed' in outcome);
  }

  return {
    concurrency: options.concurrency ?? 4,
    async acquire(request): Promise<BrowserLease> {
      request.signal?.throwIfAborted();
      refuseHostLabels(request);
      const clone = await create(request);
      await record({
        type: 'clone-created',
        taskId: request.taskId,
        data: {
          clone: clone.name,
          isolation: clone.isolation,
          allowedDomains: clone.allowedDomains,
          fromPool: clone.fromPool,
          readyMs: clone.readyMs,
          // The admin's exceptions to "no clone reaches the host" this clone's proxy honours.
          egressExceptions: clone.egressExceptions ?? [],
        },
      });
      if (clone.isolation.level !== 'full') {
        logger.warn(
          { clone: clone.name, reasons: clone.isolation.reasons },
          'clone runs with reduced isolation',
        );
      }
      // The task the clone works for now: a kept clone's follow-up takes it over.
      let holder = request.taskId;
      const feed = followEgressRefusals({
        client,
        lease: clone,
        logger,
        onRefusal: auditRefusal(clone, () => holder),
      });
      let released: Promise<void> | null = null;
      const { relay } = options;
      const connections = leaseConnections();
      const service = {
        ...(relay ? relayEndpoint(relay.baseUrl, relay.token, clone) : clone.service),
        fetch: connections.fetch,
      };
      return {
        id: clone.name,
        service,
        display: clone.display,
        operator: createClawdieBrowserOperator(service),
        release() {
          released ??= destroy(clone, holder, feed).then(async (destroyed) => {
            await connections.close();
            // hostd did not answer: a later release (the fleet's, when the host is back) retries.
            if (!destroyed) released = null;
          });
          return released;
        },
        rebind(taskId) {
          if (taskId !== null) holder = taskId;
        },
      };
    },
  };
}
