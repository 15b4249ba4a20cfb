// The controlplane's children (a local jail-service, an embedded hostd, Xvfb, ffmpeg) are started
// by hostd's one launcher (@clawdie/hostd/runner) and tracked by one ChildRegistry, so a crash never
// leaves an orphan browser behind. The registry is this process's only instance; it moves into the
// composition root once there is one (issue 13, point 2).
import {
  ChildRegistry,
  type LaunchedProcess,
  SpawnLauncher,
  type LaunchOptions as SpawnOptions,
} from '@clawdie/hostd/runner';
import type { ChildEnvironment } from './child-environment.js';

export type { LaunchedProcess };

export interface LaunchOptions extends Omit<SpawnOptions, 'env'> {
  /** The child's whole environment (nothing is inherited): build it with `childEnvironment`. */
  env: ChildEnvironment;
}

/** Every child the controlplane starts, killed when it exits. */
export const controlplaneChildren = new ChildRegistry();
const launcher = new SpawnLauncher(controlplaneChildren);

/** Spawns `argv` without a shell. Rejects if the program cannot be started. */
export function launchProcess(options: LaunchOptions): Promise<LaunchedProcess> {
  return launcher.launch(options);
}
