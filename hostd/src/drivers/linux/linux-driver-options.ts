// The Linux driver's options: where clone state lives, which uids, what runs inside the sandbox.
import type { CommandRunner, ProcessLauncher } from '@clawdie/kit/runner';
import type { CloneNamespace } from '../clone-namespace.js';
import type { TaskLogRetention } from '../task-logs.js';
import type { ReadOnlyBind } from './sandbox.js';

export interface LinuxDriverOptions {
  runner: CommandRunner;
  launcher: ProcessLauncher;
  /** Root-only directory of per-clone state (tmpfs): `/run/clawdie-hostd`. */
  stateRoot: string;
  cgroupRoot: string;
  cgroupGroup: string;
  /** Clone N runs as uid/gid uidBase + 1000·slot + N (linux/names.ts). */
  uidBase: number;
  /** The clones this driver owns; it never observes or touches another namespace's. */
  namespace: CloneNamespace;
  servicePort: number;
  proxyPort: number;
  /** The jail-service command inside the sandbox, e.g. [node, /app/jail-service/dist/main.js]. */
  serviceArgv: readonly string[];
  /** Directories bound read-only into the sandbox (the service's code and node_modules). */
  readOnlyDirs: readonly ReadOnlyBind[];
  serviceCwd: string;
  /** Extra environment for the jail-service (CLAWDIE_CHROMIUM_PATH, CLAWDIE_LOG_LEVEL, …). */
  serviceEnv: Readonly<Record<string, string>>;
  /** Copied into each clone's profile when set. */
  templateProfile: string | null;
  healthTimeoutMs: number;
  /** Where a failed start leaves the clone's output (bounded); none when absent. */
  taskLogs?: TaskLogRetention;
  xDir?: string;
  /** Receives the jail-service's stderr lines. Must not throw. */
  onServiceLine?: (name: string, line: string) => void;
  /**
   * Receives the duration of each create/start phase (`observe`, `setup`, `display`, `spawn`,
   * `health`, `inspect`), for benchmarks. Must not throw.
   */
  onPhase?: (name: string, phase: string, ms: number) => void;
}
