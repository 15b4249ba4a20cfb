// The controlplane's children (a local jail-service, an embedded hostd, Xvfb, ffmpeg) are started
// by the one launcher of @clawdie/kit/runner and tracked by ONE ChildRegistry, so a crash
// never leaves an orphan browser behind. The registry is made by the process entry (server.ts,
// cli.ts, mcp-command.ts) and handed down: there is no module-level registry.
import {
  ChildRegistry,
  type LaunchedProcess,
  SpawnLauncher,
  type LaunchOptions as SpawnOptions,
} from '@clawdie/kit/runner';
import type { ChildEnvironment } from './child-environment.js';

export type { LaunchedProcess };

export interface LaunchOptions extends Omit<SpawnOptions, 'env'> {
  /** The child's whole environment (nothing is inherited): build it with `childEnvironment`. */
  env: ChildEnvironment;
}

/** Starts the controlplane's long-lived children; every one is tracked by `children`. */
export interface ControlplaneLauncher {
  /** The process's one registry (ffmpeg, which needs its stdin pipe, tracks itself in it). */
  readonly children: ChildRegistry;
  /** Spawns `argv` without a shell. Rejects if the program cannot be started. */
  launch(options: LaunchOptions): Promise<LaunchedProcess>;
}

/**
 * Called once by the process entry. `children` defaults to a fresh registry: the entry owns the
 * result, and every child the process starts goes through it.
 */
export function createControlplaneLauncher(
  children: ChildRegistry = new ChildRegistry(),
): ControlplaneLauncher {
  const launcher = new SpawnLauncher(children);
  return { children, launch: (options) => launcher.launch(options) };
}
