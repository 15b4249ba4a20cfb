/** Result of one finished command: any exit code is a value, not an exception. */
export interface CommandResult {
  exitCode: number;
  stdout: Buffer;
  stderr: string;
  durationMs: number;
}

export interface CommandOptions {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Extra environment (e.g. `DISPLAY`) on top of `PATH`. */
  env?: Record<string, string>;
}

/**
 * Runs one program without a shell. Resolves on any exit code; rejects only when the program
 * cannot start, on timeout (a `CommandTimeoutError`) or on abort (an `AbortError`).
 */
export interface CommandRunner {
  run(argv: readonly [string, ...string[]], options: CommandOptions): Promise<CommandResult>;
}

export class CommandTimeoutError extends Error {
  readonly code = 'COMMAND_TIMEOUT';
  constructor(argv0: string, timeoutMs: number) {
    super(`${argv0} did not finish within ${timeoutMs} ms`);
    this.name = 'CommandTimeoutError';
  }
}
