// The seam between code and the operating system: every external command hostd's drivers, setup
// and the jail-service's desktop surface run goes through this port (house-style §3.2,
// freebsd-jails.md §4.1). It is the one CommandRunner of the repository:
// `@clawdie/kit/runner`.

/** Options of one command run. */
export interface RunOptions {
  cwd?: string;
  /** The complete environment of the child; when absent the child gets a minimal PATH only. */
  env?: Readonly<Record<string, string>>;
  /** Written to the child's stdin, which is then closed. */
  stdin?: string;
  /** Hard limit; the child is killed (SIGKILL) when it passes and the run rejects. */
  timeoutMs: number;
  /** Aborting kills the child and rejects the run. */
  signal?: AbortSignal;
}

/** What a finished command produced. A non-zero exit code is a value, never an exception. */
export interface RunResult {
  exitCode: number;
  stdout: string;
  /**
   * The same output as raw bytes, for binary output (an `xwd` image). The real adapter always
   * sets it; a fake may leave it out, and readers then fall back to `Buffer.from(stdout)`.
   */
  stdoutBytes?: Buffer;
  stderr: string;
  durationMs: number;
}

/**
 * Runs one command given as an argv array (absolute program path first, no shell).
 *
 * Contract: resolves on ANY exit code (a child killed by a signal resolves with 128 + signal
 * number); rejects only when the program cannot be spawned (CommandSpawnError), on timeout
 * (CommandTimeoutError) or on abort (CommandAbortedError). Callers decide what a non-zero exit
 * means.
 *
 * @example
 *   const result = await runner.run(['/usr/sbin/ip', 'netns', 'list'], { timeoutMs: 5000 });
 *   if (result.exitCode !== 0) ...
 */
export interface CommandRunner {
  run(argv: readonly string[], options: RunOptions): Promise<RunResult>;
}

/** The program could not be started (missing binary, permission denied). */
export class CommandSpawnError extends Error {
  readonly code = 'COMMAND_SPAWN_FAILED';
  readonly argv: readonly string[];
  constructor(argv: readonly string[], cause: unknown) {
    super(`cannot run ${argv[0] ?? '(empty argv)'}: ${(cause as Error)?.message ?? cause}`, {
      cause,
    });
    this.argv = argv;
  }
}

/** The program ran longer than `timeoutMs` and was killed. */
export class CommandTimeoutError extends Error {
  readonly code = 'COMMAND_TIMEOUT';
  readonly argv: readonly string[];
  readonly timeoutMs: number;
  constructor(argv: readonly string[], timeoutMs: number) {
    super(`${argv.join(' ')} did not finish within ${timeoutMs} ms`);
    this.argv = argv;
    this.timeoutMs = timeoutMs;
  }
}

/** The run was aborted through its signal and the program was killed. */
export class CommandAbortedError extends Error {
  readonly code = 'COMMAND_ABORTED';
  readonly argv: readonly string[];
  constructor(argv: readonly string[]) {
    super(`${argv.join(' ')} was aborted`);
    this.argv = argv;
  }
}
