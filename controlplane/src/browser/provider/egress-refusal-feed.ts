// Follows one hostd lease's egress refusals live (hostd's per-lease SSE stream), handing each to
// `onRefusal` as it happens — so a refusal is audited while its task runs, survives a controlplane
// crash, and is never read by clone name (a later holder of the name cannot see it). Reconnects
// with backoff from the last seq seen; after the lease is destroyed, `finish` waits for hostd's
// end-of-lease event and reads whatever the stream did not deliver.
import type { EgressRefusal } from '@clawdie/hostd/api';
import type { CloneLeaseRef, HostdClient } from '@clawdie/hostd/client';
import { sleep } from '@clawdie/kit/timing';
import type { Logger } from 'pino';

export interface EgressRefusalFeedOptions {
  client: Pick<HostdClient, 'followEgressRefusals' | 'egressRefusals'>;
  lease: CloneLeaseRef;
  /** Called once per refusal, in order. Must not throw. */
  onRefusal: (refusal: EgressRefusal) => void;
  logger: Logger;
  /** Reconnect delay after a broken stream: first, doubling up to max. */
  retryMs?: { min: number; max: number };
}

export interface EgressRefusalFeed {
  /**
   * Call after the lease was destroyed: waits up to `timeoutMs` for hostd's end-of-lease event,
   * then stops following and reads what is left. Never throws.
   */
  finish(timeoutMs?: number): Promise<void>;
}

export function followEgressRefusals(options: EgressRefusalFeedOptions): EgressRefusalFeed {
  const { client, lease, logger } = options;
  const retry = options.retryMs ?? { min: 250, max: 5000 };
  const controller = new AbortController();
  let lastSeq = 0;
  const deliver = (refusal: EgressRefusal) => {
    if (refusal.leaseId !== lease.leaseId || refusal.seq <= lastSeq) return;
    lastSeq = refusal.seq;
    options.onRefusal(refusal);
  };
  const following = (async (): Promise<boolean> => {
    let delay = retry.min;
    while (!controller.signal.aborted) {
      try {
        const result = await client.followEgressRefusals(lease, {
          after: lastSeq,
          signal: controller.signal,
          onRefusal: deliver,
        });
        if (result.ended) return true;
      } catch (error) {
        // hostd refused the lease (ended and forgotten, or never ours): nothing more will come.
        logger.warn({ err: error, clone: lease.name }, 'cannot follow the clone’s egress refusals');
        return false;
      }
      await sleep(delay, controller.signal).catch(() => {});
      delay = Math.min(retry.max, delay * 2);
    }
    return false;
  })();
  return {
    async finish(timeoutMs = 5000) {
      const ended = await Promise.race([following, sleep(timeoutMs).then(() => false)]);
      controller.abort();
      if (ended) return;
      try {
        for (const refusal of await client.egressRefusals(lease, lastSeq)) deliver(refusal);
      } catch (error) {
        logger.warn({ err: error, clone: lease.name }, 'could not read the last egress refusals');
      }
    },
  };
}
