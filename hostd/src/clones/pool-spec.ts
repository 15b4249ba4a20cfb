// What a warm clone is made with (the defaults), and whether a task's request can take one.
import type { CloneLimits, CloneSpec } from '../drivers/jail-driver.js';
import type { CloneManagerOptions } from './clone-manager-options.js';

/** The task id warm clones are made under until a task takes one. */
export const POOL_TASK = 'warm-pool';

type Defaults = Pick<CloneManagerOptions, 'defaultLimits' | 'defaultDisplay'>;

export function poolSpecOf({ defaultLimits, defaultDisplay }: Defaults): CloneSpec {
  return { taskId: POOL_TASK, allowedDomains: [], limits: defaultLimits, display: defaultDisplay };
}

/** A pooled clone fits a request with exactly the default limits and display. */
export function fitsPool(defaults: Defaults, limits: CloneLimits, display: boolean): boolean {
  const base = defaults.defaultLimits;
  return (
    limits.memoryMb === base.memoryMb &&
    limits.pids === base.pids &&
    limits.cpuPercent === base.cpuPercent &&
    display === defaults.defaultDisplay
  );
}
