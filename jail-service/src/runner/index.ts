// Public surface of `@clawdie/jail-service/runner`: the one CommandRunner and ProcessLauncher port
// of the repository, its typed errors, the real adapters and the ChildRegistry. It lives in the
// jail-service because that is the leaf package (it runs inside a jail and depends on no other
// workspace); hostd, the controlplane and setup import it from here, never by a relative path.

export { ChildRegistry } from './child-registry.js';
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
  type LaunchedProcess,
  type LaunchOptions,
  type ProcessLauncher,
  SpawnLauncher,
} from './process-launcher.js';
