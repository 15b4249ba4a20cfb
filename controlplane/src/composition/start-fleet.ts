// CLAWDIE_FLEET=on: the registry of jail hosts over this controlplane's store, and the heartbeat
// that keeps their health and load current: `start()` (once its listeners are attached) runs one
// round before the first task, then one every CLAWDIE_FLEET_HEARTBEAT_MS until close.
import type { Clone } from '@clawdie/hostd/api';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { FleetHosts } from '../fleet/fleet-hosts.js';
import { createHostMonitor, type HostHealthChange } from '../fleet/host-monitor.js';
import { createHostRegistry } from '../fleet/host-registry.js';
import { loadVaultKey } from '../governance/credentials/secret-vault.js';
import type { CloseStack } from './close-stack.js';
import type { OpenedStore } from './open-store.js';

export async function startFleet(
  config: Readonly<Config>,
  store: Pick<OpenedStore, 'stores' | 'audit'>,
  deps: { logger: Logger; clock: Clock; stack: CloseStack },
): Promise<FleetHosts> {
  const hostStore = store.stores.hosts;
  const registry = createHostRegistry({
    store: hostStore,
    key: () => loadVaultKey(config.secretsKeyFile, { create: false }),
    audit: store.audit,
    now: () => deps.clock.now(),
    staleMs: config.fleet.staleMs,
  });
  const listeners = new Set<(change: HostHealthChange) => Promise<void>>();
  const cloneListeners = new Set<(host: string, clones: readonly Clone[]) => Promise<void>>();
  const monitor = createHostMonitor({
    registry,
    store: hostStore,
    logger: deps.logger,
    now: () => deps.clock.now(),
    async onChange(change) {
      if (change.to === 'lost') deps.logger.warn(change, 'jail host lost');
      else deps.logger.info(change, change.to === 'up' ? 'jail host up' : 'jail host back');
      for (const listener of listeners) await listener(change);
    },
    async onClones(host, clones) {
      for (const listener of cloneListeners) await listener(host, clones);
    },
  });
  deps.stack.defer(() => monitor.stop());
  return {
    registry,
    onHostChange(listener) {
      listeners.add(listener);
    },
    onClones(listener) {
      cloneListeners.add(listener);
    },
    async start() {
      await monitor.beatAll();
      monitor.start(config.fleet.heartbeatMs);
      const hosts = await registry.list();
      deps.logger.info(
        { hosts: hosts.map((host) => `${host.name}:${host.health}`) },
        'placing tasks on the registered jail hosts',
      );
    },
  };
}
