// Test wiring for the fake FreeBSD host only: what cannot exist on this machine is a jail's own
// network. The FreeBSD driver reports a clone's service at its jail address (10.78.x.y:9223) and
// its host end at 10.78.x.(y-1), where hostd binds the clone's egress proxy. Here the real
// jail-service of that jail listens on a loopback port (jail-service-processes.ts), so this
// wrapper maps exactly those two addresses to loopback in what the driver reports; every call
// still goes to the real FreeBsdDriver unchanged.
import type { CloneInfo, JailDriver } from '../../../../hostd/src/drivers/jail-driver.js';
import type { JailServiceProcesses } from './jail-service-processes.js';

export function throughLoopback(driver: JailDriver, services: JailServiceProcesses): JailDriver {
  const map = (info: CloneInfo): CloneInfo => {
    const url = services.loopbackUrl(info.name);
    return {
      ...info,
      service: info.service && url ? { ...info.service, url } : info.service,
      network: info.network && { ...info.network, hostAddress: '127.0.0.1' },
    };
  };
  const mapOrNull = (info: CloneInfo | null) => (info === null ? null : map(info));
  return {
    kind: driver.kind,
    namespace: driver.namespace,
    probe: () => driver.probe(),
    create: async (index, spec) => map(await driver.create(index, spec)),
    start: async (name, options) => map(await driver.start(name, options)),
    stop: async (name) => mapOrNull(await driver.stop(name)),
    destroy: (name) => driver.destroy(name),
    inspect: async (name) => mapOrNull(await driver.inspect(name)),
    list: async () => (await driver.list()).map(map),
    reconcile: (keep) => driver.reconcile((clone) => keep(map(clone))),
    ...(driver.preflight ? { preflight: () => driver.preflight?.() ?? Promise.resolve([]) } : {}),
  };
}
