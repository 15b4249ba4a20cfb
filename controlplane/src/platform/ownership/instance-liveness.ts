import { hostname } from 'node:os';
import { isProcessAlive } from '@clawdie/kit/runner';
import type { Clock } from '../../clock.js';
import type { InstanceRecord } from '../store/instance-repository.js';

/** How this process judges whether another registered instance still runs. */
export interface LivenessProbe {
  /** This host's clock: judges only rows whose store keeps no clock of its own (SQLite). */
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
 * timeout elsewhere.
 *
 * The heartbeat's age comes from the store when it has a clock (PostgreSQL: `heartbeatAgeMs`,
 * written and judged by the database's clock), so replicas whose clocks disagree never take each
 * other for dead. Only on SQLite is it `probe.clock` minus the row's time: every process on a
 * SQLite file runs on the host that holds the data dir (SQLite's locking is not safe on a network
 * filesystem), so writer and judge share one clock, and tests drive it with a manual clock.
 */
export function isInstanceLive(instance: InstanceRecord, probe: LivenessProbe): boolean {
  const age = instance.heartbeatAgeMs ?? probe.clock.now() - instance.heartbeatAt;
  if (age > probe.timeoutMs) return false;
  return instance.hostname !== probe.hostname || probe.isPidAlive(instance.pid);
}

/** `kill(pid, 0)`: no signal is sent; ESRCH means no such process, EPERM means it exists. */
export const isPidAlive = isProcessAlive;

export const hostName = (): string => hostname();
