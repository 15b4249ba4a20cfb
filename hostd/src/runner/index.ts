// Public surface of `@clawdie/hostd/runner`: the one CommandRunner port of the repository, its
// typed errors and the real adapter. Other packages (setup, controlplane) import it from here,
// never by a relative path into hostd/src.

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
