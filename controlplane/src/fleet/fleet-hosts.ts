import type { HostHealthChange } from './host-monitor.js';
import type { HostRegistry } from './host-registry.js';

/** The registered jail hosts of a CLAWDIE_FLEET=on controlplane, and its heartbeat's verdicts. */
export interface FleetHosts {
  registry: HostRegistry;
  /** `listener` hears every host lost or back (it must not throw). */
  onHostChange(listener: (change: HostHealthChange) => void): void;
}
