// The one audit row of a refused egress attempt, whichever proxy refused it: a hostd clone's (per
// lease, streamed from hostd) or the controlplane's own in front of its local browser (no hostd).
// Both modes write exactly these fields, so the dashboard and the audit queries read one shape.
import type { EgressRefusal } from '@clawdie/hostd/api';
import type { AuditEvent } from '../../governance/audit/audit-log.js';

/** What the row needs of a refusal: hostd's EgressRefusal, or the local proxy's equivalent. */
export type RefusalFields = Pick<
  EgressRefusal,
  'generation' | 'host' | 'port' | 'method' | 'reason' | 'address' | 'at'
>;

/** `egress-refused` for task `taskId`, naming the browser (`clone`) whose proxy refused. */
export function egressRefusedEvent(
  clone: string,
  taskId: string | null,
  refusal: RefusalFields,
): Omit<AuditEvent, 'actor'> {
  return {
    type: 'egress-refused',
    taskId,
    data: {
      clone,
      generation: refusal.generation,
      host: refusal.host,
      port: refusal.port,
      method: refusal.method,
      reason: refusal.reason,
      ...(refusal.address === undefined ? {} : { address: refusal.address }),
      at: refusal.at,
    },
  };
}
