import type { CloneInfo } from '../jail-driver.js';
import type { HostCapabilities } from './host-probe.js';
import type { LinuxCloneNames } from './names.js';
import { type Observation, resourceList } from './observe.js';
import { isAlive } from './processes.js';

/**
 * What the OS shows of one clone, as the port's CloneInfo: `broken` when a resource the host
 * supports is missing or the recorded service process is gone, `running` with a live service,
 * else `created`. Reads process liveness; never caches.
 */
export async function cloneInfoOf(
  entry: Observation,
  names: LinuxCloneNames,
  host: HostCapabilities,
): Promise<CloneInfo> {
  const { meta, service, display } = entry.files;
  const complete =
    entry.stateDir !== null &&
    meta !== null &&
    (!host.netns || (entry.netns && entry.link)) &&
    (host.cgroups.mode === 'none' || entry.cgroups.length === host.cgroups.parents.length) &&
    (!meta.spec.display || (display !== null && entry.displays.includes(display)));
  const serviceAlive = service !== null && (await isAlive(service.pid));
  const state =
    !complete || (service && !serviceAlive) ? 'broken' : service ? 'running' : 'created';
  return {
    index: entry.index,
    name: names.name,
    taskId: meta?.spec.taskId ?? null,
    state,
    service: service ? { url: service.url, token: service.token } : null,
    isolation: meta?.isolation ?? host.isolation,
    network:
      host.netns && entry.netns
        ? { hostAddress: names.hostAddress, cloneAddress: names.cloneAddress }
        : null,
    display: display === null ? null : `:${display}`,
    resources: resourceList(entry, names),
  };
}
