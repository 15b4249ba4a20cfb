// Public surface of `@clawdie/kit/runner`: the one CommandRunner and ProcessLauncher port
// of the repository, its typed errors, the real adapters, the ChildRegistry with its record of
// live children, and the start-up sweep that stops a crashed process's children. It lives in the
// jail-service because that is the leaf package (it runs inside a jail and depends on no other
// workspace); hostd, the controlplane and setup import it from here, never by a relative path.

export { type ChildRecord, childRecordPath, type RecordedChild } from './child-record.js';
export { ChildRegistry, type TrackOptions } from './child-registry.js';
export {
  CommandAbortedError,
  type CommandRunner,
  CommandSpawnError,
  CommandTimeoutError,
  type RunOptions,
  type RunResult,
} from './command-runner.js';
export { ExecFileRunner, type ExecFileRunnerOptions } from './exec-file-runner.js';
export {
  type SweepOptions,
  type SweepResult,
  sweepRecordedChildren,
} from './orphan-sweep.js';
export {
  type IdentityOptions,
  isSameProcess,
  type ProcessIdentity,
  readProcessIdentity,
} from './process-identity.js';
export {
  type LaunchedProcess,
  type LaunchOptions,
  type ProcessLauncher,
  SpawnLauncher,
} from './process-launcher.js';
export {
  markRunning,
  RUNNING_MARKER_DIR,
  type RunningMarker,
  type RunningRole,
} from './running-marker.js';
export { isProcessAlive, removeDirsOfGoneProcesses } from './stale-dirs.js';
