import type { Clone } from '@clawdie/hostd/api';
import type { HostHealthChange } from './host-monitor.js';
import type { HostRegistry } from './host-registry.js';

/** The registered jail hosts of a CLAWDIE_FLEET=on controlplane, and its heartbeat's verdicts. */
export interface FleetHosts {
  registry: HostRegistry;
  /** `listener` hears every host first up, lost or back; the heartbeat awaits it. */
  onHostChange(listener: (change: HostHealthChange) => Promise<void>): void;
  /** `listener` hears every clone of each host that answered a heartbeat; the round awaits it. */
  onClones(listener: (host: string, clones: readonly Clone[]) => Promise<void>): void;
  /** The first heartbeat round (listeners heard), then one every interval. */
  start(): Promise<void>;
}
