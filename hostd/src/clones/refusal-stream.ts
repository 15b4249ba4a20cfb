// `GET /clones/:name/egress-refusals/stream`: a lease's egress refusals as Server-Sent Events, live.
// Each `refusal` event carries the record with `id: <seq>`; a reader resuming with `after` (or
// Last-Event-ID) gets only what it missed. Once the lease ends (its proxy is closed, so nothing more
// can come) the rest is flushed and a final `lease-ended` event closes the stream.
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
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
  return streamSSE(c, async (stream) => {
    const pending: EgressRefusal[] = [];
    let wake: (() => void) | null = null;
    const unsubscribe = refusals.subscribe((refusal) => {
      if (refusal.leaseId !== lease.leaseId) return;
      pending.push(refusal);
      wake?.();
    });
    void lease.ended.then(() => wake?.());
    stream.onAbort(() => wake?.());
    const heartbeat = setInterval(
      () => void stream.write(': keep-alive\n\n').catch(() => undefined),
      heartbeatMs,
    );
    try {
      let sent = after;
      pending.push(...refusals.list({ leaseId: lease.leaseId, after }));
      for (;;) {
        for (const refusal of pending.splice(0)) {
          if (refusal.seq <= sent) continue;
          await stream.writeSSE({
            id: String(refusal.seq),
            event: 'refusal',
            data: JSON.stringify(refusal),
          });
          sent = refusal.seq;
        }
        if (stream.aborted) return;
        if (pending.length > 0) continue;
        if (lease.endedAt !== null) {
          const data = { generation: lease.generation, lastSeq: sent };
          await stream.writeSSE({ event: 'lease-ended', data: JSON.stringify(data) });
          return;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
      }
    } finally {
      clearInterval(heartbeat);
      unsubscribe();
    }
  });
}
