// Adapter: CommandRunner over node:child_process `spawn` (no shell). runner/ folders are the only
// places allowed to start processes.
import { spawn } from 'node:child_process';
import {
  CommandAbortedError,
  type CommandRunner,
  CommandSpawnError,
  CommandTimeoutError,
  type RunOptions,
  type RunResult,
} from './command-runner.js';

const DEFAULT_MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
const DEFAULT_ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C' };
const SIGNAL_NUMBERS: Readonly<Record<string, number>> = { SIGKILL: 9, SIGTERM: 15, SIGINT: 2 };

export interface ExecFileRunnerOptions {
  /** Output beyond this per stream is dropped. Default 16 MiB (an `xwd` of a 4K screen needs more). */
  maxOutputBytes?: number;
}

/** Runs commands for real. Output beyond `maxOutputBytes` per stream is dropped. */
export class ExecFileRunner implements CommandRunner {
  readonly #maxOutputBytes: number;
  constructor(options: ExecFileRunnerOptions = {}) {
    this.#maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  }

  run(argv: readonly string[], options: RunOptions): Promise<RunResult> {
    const [program, ...args] = argv;
    if (program === undefined) return Promise.reject(new Error('empty argv'));
    const started = performance.now();
    return new Promise((resolve, reject) => {
      if (options.signal?.aborted) {
        reject(new CommandAbortedError(argv));
        return;
      }
      const child = spawn(program, args, {
        cwd: options.cwd,
        env: options.env ?? DEFAULT_ENV,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const stdout = collect(child.stdout, this.#maxOutputBytes);
      const stderr = collect(child.stderr, this.#maxOutputBytes);
      let failure: Error | null = null;
      const kill = (error: Error) => {
        failure ??= error;
        child.kill('SIGKILL');
      };
      const timer = setTimeout(
        () => kill(new CommandTimeoutError(argv, options.timeoutMs)),
        options.timeoutMs,
      );
      const onAbort = () => kill(new CommandAbortedError(argv));
      options.signal?.addEventListener('abort', onAbort, { once: true });
      child.once('error', (error) => {
        failure ??= new CommandSpawnError(argv, error);
      });
      child.stdin.on('error', () => {});
      child.stdin.end(options.stdin ?? '');
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        if (failure) {
          reject(failure);
          return;
        }
        resolve(
          result(code ?? 128 + (SIGNAL_NUMBERS[signal ?? ''] ?? 0), stdout(), stderr(), started),
        );
      });
    });
  }
}

function collect(stream: NodeJS.ReadableStream, limit: number): () => Buffer {
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on('data', (chunk: Buffer) => {
    if (size >= limit) return;
    chunks.push(chunk);
    size += chunk.length;
  });
  return () => Buffer.concat(chunks);
}

/** The text of stdout is decoded on first read only: binary output (images) never pays for it. */
function result(exitCode: number, bytes: Buffer, stderr: Buffer, started: number): RunResult {
  let text: string | undefined;
  return {
    exitCode,
    get stdout() {
      text ??= bytes.toString('utf8');
      return text;
    },
    stdoutBytes: bytes,
    stderr: stderr.toString('utf8'),
    durationMs: performance.now() - started,
  };
}
