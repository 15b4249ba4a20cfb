// How a clone held by the manager is shown on hostd's API: the observed clone, its lease's
// identity (generation always; the lease id only to the caller that was just handed the lease).
import type { Clone, LeasedClone } from '../api/schema.js';
import type { CloneInfo, CloneLimits } from '../drivers/jail-driver.js';
import type { EgressProxy } from '../proxy/egress-proxy.js';
import type { LeaseRecord } from './lease-registry.js';

export interface CloneView {
  info: CloneInfo;
  proxy: EgressProxy;
  lease: LeaseRecord;
  allowedDomains: string[];
  limits: CloneLimits;
  fromPool: boolean;
  createdAt: Date;
  readyMs: number;
}

/** `exceptions`: the admin's internal host:port entries every clone may reach (audited). */
export function toClone(view: CloneView, exceptions: readonly string[]): Clone {
  const { info, lease } = view;
  if (!info.service) throw new Error(`${info.name} has no service`);
  return {
    name: info.name,
    index: info.index,
    generation: lease.generation,
    taskId: lease.taskId,
    holder: lease.holder,
    state: info.state,
    service: { url: info.service.url, token: info.service.token },
    isolation: { level: info.isolation.level, reasons: [...info.isolation.reasons] },
    allowedDomains: view.allowedDomains,
    limits: view.limits,
    display: info.display,
    egressProxyUrl: view.proxy.url,
    egressExceptions: [...exceptions],
    fromPool: view.fromPool,
    createdAt: view.createdAt.toISOString(),
    readyMs: Math.round(view.readyMs * 10) / 10,
  };
}

/** For the caller that was just handed the lease, and only for it. */
export function toLeasedClone(view: CloneView, exceptions: readonly string[]): LeasedClone {
  return { ...toClone(view, exceptions), leaseId: view.lease.leaseId };
}
