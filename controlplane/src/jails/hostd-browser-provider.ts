// Adapter: a fresh hostd clone per task (create on acquire, destroy on release), each driven by a
// ClawdieBrowserOperator pointed at the clone's own jail-service URL and token. Clone creation and
// destruction (with the admin's egress exceptions the clone had) and every egress connection the
// clone's proxy refused go to the audit.
import type { Clone } from '@clawdie/hostd/api';
import type { HostdClient } from '@clawdie/hostd/client';
import type { Logger } from 'pino';
import type { AuditEvent, AuditLog } from '../audit/audit-log.js';
import { OperatorError } from '../errors.js';
import { createClawdieBrowserOperator } from '../operator/clawdie-browser-operator.js';
import type { BrowserLease, BrowserProvider } from './browser-provider.js';

export interface HostdBrowserProviderOptions {
  client: Pick<HostdClient, 'createClone' | 'destroyClone'> &
    Partial<Pick<HostdClient, 'egressRefusals'>>;
  logger: Logger;
  /** Tasks running at once, each in its own clone (default 4). */
  concurrency?: number;
  audit?: AuditLog;
}

export function createHostdBrowserProvider(options: HostdBrowserProviderOptions): BrowserProvider {
  const { client, logger } = options;
  const record = (event: Omit<AuditEvent, 'actor'>) => {
    try {
      options.audit?.append({ actor: 'system', ...event });
    } catch (error) {
      logger.error({ err: error, event: event.type }, 'audit append failed');
    }
  };

  async function create(taskId: string, allowedDomains: string[], display?: boolean) {
    try {
      return await client.createClone({
        taskId,
        allowedDomains,
        ...(display === undefined ? {} : { display }),
      });
    } catch (error) {
      throw new OperatorError(
        'OPERATOR_UNAVAILABLE',
        `hostd could not create a clone: ${(error as Error).message}`,
        error,
      );
    }
  }

  /** Audits what the clone's proxy refused, then destroys it (verified by hostd). */
  async function destroy(clone: Clone, taskId: string): Promise<void> {
    try {
      const refusals = (await client.egressRefusals?.({ name: clone.name })) ?? [];
      for (const refusal of refusals)
        record({
          type: 'egress-refused',
          taskId,
          data: {
            clone: clone.name,
            host: refusal.host,
            port: refusal.port,
            method: refusal.method,
            reason: refusal.reason,
            ...(refusal.address === undefined ? {} : { address: refusal.address }),
            at: refusal.at,
          },
        });
    } catch (error) {
      logger.warn({ err: error, clone: clone.name }, 'could not read the clone’s egress refusals');
    }
    try {
      const { leftovers } = await client.destroyClone(clone.name);
      record({ type: 'clone-destroyed', taskId, data: { clone: clone.name, leftovers } });
      if (leftovers.length > 0)
        logger.error({ clone: clone.name, leftovers }, 'clone destroyed with leftovers');
    } catch (error) {
      record({
        type: 'clone-destroyed',
        taskId,
        data: { clone: clone.name, failed: (error as Error).message },
      });
      logger.error({ err: error, clone: clone.name }, 'clone destroy failed; hostd reconciles it');
    }
  }

  return {
    concurrency: options.concurrency ?? 4,
    async acquire(request): Promise<BrowserLease> {
      request.signal?.throwIfAborted();
      const clone = await create(request.taskId, [...request.allowedDomains], request.display);
      record({
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
      let released: Promise<void> | null = null;
      return {
        id: clone.name,
        service: clone.service,
        display: clone.display,
        operator: createClawdieBrowserOperator(clone.service),
        release() {
          released ??= destroy(clone, request.taskId);
          return released;
        },
      };
    },
  };
}
