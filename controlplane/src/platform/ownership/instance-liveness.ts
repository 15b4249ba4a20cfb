import { hostname } from 'node:os';
import { isProcessAlive } from '@clawdie/kit/runner';
import type { Clock } from '../../clock.js';
import type { InstanceRecord } from '../store/instance-repository.js';

/** How this process judges whether another registered instance still runs. */
export interface LivenessProbe {
  clock: Pick<Clock, 'now'>;
  /** This machine's hostname: a pid is only meaningful on the host that registered it. */
  hostname: string;
  /** True when a process with this pid exists on this host. */
  isPidAlive(pid: number): boolean;
  /** An instance whose heartbeat is older than this is gone, wherever it ran. */
  timeoutMs: number;
}

/**
 * Live = heartbeat within `timeoutMs` and, on this host, its pid still exists. A process that
 * died without deregistering is seen as gone at once on its own host (pid check) and after the
 * timeout elsewhere (a shared database on a network filesystem).
 */
export function isInstanceLive(instance: InstanceRecord, probe: LivenessProbe): boolean {
  if (probe.clock.now() - instance.heartbeatAt > probe.timeoutMs) return false;
  return instance.hostname !== probe.hostname || probe.isPidAlive(instance.pid);
}

/** `kill(pid, 0)`: no signal is sent; ESRCH means no such process, EPERM means it exists. */
export const isPidAlive = isProcessAlive;

export const hostName = (): string => hostname();
