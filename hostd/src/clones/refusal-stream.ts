// `GET /clones/:name/egress-refusals/stream`: a lease's egress refusals as Server-Sent Events, live.
// Each `refusal` event carries the record with `id: <seq>`; a reader resuming with `after` (or
// Last-Event-ID) gets only what it missed. Once the lease ends (its proxy is closed, so nothing more
// can come) the rest is flushed and a final `lease-ended` event closes the stream.
import { streamReplay } from '@clawdie/kit/sse';
import type { Context } from 'hono';
import type { EgressRefusal } from '../api/schema.js';
import type { LeaseRecord } from './lease-registry.js';
import type { RefusalLog } from './refusal-log.js';

export function streamLeaseRefusals(
  c: Context,
  refusals: RefusalLog,
  lease: LeaseRecord,
  after: number,
  heartbeatMs = 15_000,
) {
  const { leaseId } = lease;
  return streamReplay<EgressRefusal>(c, {
    source: {
      since: (lastId) => refusals.list({ leaseId, after: lastId }),
      subscribe: (listener) =>
        refusals.subscribe((refusal) => {
          if (refusal.leaseId === leaseId) listener(refusal);
        }),
    },
    lastId: after,
    idOf: (refusal) => refusal.seq,
    message: (refusal) => ({ event: 'refusal', data: JSON.stringify(refusal) }),
    ended: lease.ended,
    final: (lastSeq) => ({
      event: 'lease-ended',
      data: JSON.stringify({ generation: lease.generation, lastSeq }),
    }),
    heartbeatMs,
  });
}
