// Everything the FreeBSD driver touches on the host, bundled: the command runner, files, the
// health probe, the layout and time. Tests swap in the fake FreeBSD host behind the same shapes.

import type { CommandRunner, RunResult } from '@clawdie/kit/runner';
import { JailDriverError, type JailDriverErrorCode } from '../jail-driver.js';
import type { TaskLogRetention } from '../task-logs.js';
import type { Argv } from './commands.js';
import type { HealthCheck } from './health-check.js';
import type { HostFiles } from './host-files.js';
import type { FreeBsdLayout } from './names.js';

export interface FreeBsdHost {
  readonly runner: CommandRunner;
  readonly files: HostFiles;
  readonly healthCheck: HealthCheck;
  readonly layout: FreeBsdLayout;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly commandTimeoutMs: number;
  /** Archived console logs and failed-start logs, in `layout.logDir`. */
  readonly taskLogs: TaskLogRetention;
}

/** Runs one command; a non-zero exit is returned, not thrown. */
export function run(host: FreeBsdHost, argv: Argv, signal?: AbortSignal): Promise<RunResult> {
  return host.runner.run(argv, {
    timeoutMs: host.commandTimeoutMs,
    ...(signal === undefined ? {} : { signal }),
  });
}

/** Runs one command and throws a JailDriverError `code` naming the step when it exits non-zero. */
export async function must(
  host: FreeBsdHost,
  argv: Argv,
  code: JailDriverErrorCode,
  cloneName: string,
): Promise<RunResult> {
  const result = await run(host, argv);
  if (result.exitCode !== 0) throw stepError(code, cloneName, argv, result.stderr);
  return result;
}

/** A failed (or lying) step: the message carries the argv and what the tool said. */
export function stepError(
  code: JailDriverErrorCode,
  cloneName: string,
  argv: Argv,
  detail: string,
): JailDriverError {
  const said = detail.trim() === '' ? '' : `: ${detail.trim()}`;
  return new JailDriverError(code, `${cloneName}: ${argv.join(' ')} failed${said}`, { cloneName });
}
