// Adapter: a fresh hostd clone per task (create on acquire, destroy on release), each driven by a
// ClawdieBrowserOperator pointed at the clone's own jail-service URL and token.
import type { HostdClient } from '@clawdie/hostd/client';
import type { Logger } from 'pino';
import { OperatorError } from '../errors.js';
import { createClawdieBrowserOperator } from '../operator/clawdie-browser-operator.js';
import type { BrowserLease, BrowserProvider } from './browser-provider.js';

export interface HostdBrowserProviderOptions {
  client: Pick<HostdClient, 'createClone' | 'destroyClone'>;
  logger: Logger;
  /** Tasks running at once, each in its own clone (default 4). */
  concurrency?: number;
}

export function createHostdBrowserProvider(options: HostdBrowserProviderOptions): BrowserProvider {
  const { client, logger } = options;
  return {
    concurrency: options.concurrency ?? 4,
    async acquire(request): Promise<BrowserLease> {
      request.signal?.throwIfAborted();
      let clone: Awaited<ReturnType<typeof client.createClone>>;
      try {
        clone = await client.createClone({
          taskId: request.taskId,
          allowedDomains: [...request.allowedDomains],
        });
      } catch (error) {
        throw new OperatorError(
          'OPERATOR_UNAVAILABLE',
          `hostd could not create a clone: ${(error as Error).message}`,
          error,
        );
      }
      if (clone.isolation.level !== 'full') {
        logger.warn(
          { clone: clone.name, reasons: clone.isolation.reasons },
          'clone runs with reduced isolation',
        );
      }
      let released: Promise<void> | null = null;
      return {
        id: clone.name,
        operator: createClawdieBrowserOperator({
          url: clone.service.url,
          token: clone.service.token,
        }),
        release() {
          released ??= client.destroyClone(clone.name).then(
            () => undefined,
            (error: unknown) =>
              logger.error(
                { err: error, clone: clone.name },
                'clone destroy failed; hostd reconciles it',
              ),
          );
          return released;
        },
      };
    },
  };
}
