// Adapter: CommandRunner over node:child_process `spawn` (no shell). hostd's runner/ folder is the
// only place allowed to start processes.
import { spawn } from 'node:child_process';
import {
  CommandAbortedError,
  type CommandRunner,
  CommandSpawnError,
  CommandTimeoutError,
  type RunOptions,
  type RunResult,
} from './command-runner.js';

const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
const DEFAULT_ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C' };
const SIGNAL_NUMBERS: Readonly<Record<string, number>> = { SIGKILL: 9, SIGTERM: 15, SIGINT: 2 };

/** Runs commands for real. Output beyond 16 MiB per stream is dropped (the tail is kept short). */
export class ExecFileRunner implements CommandRunner {
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
      const stdout = collect(child.stdout);
      const stderr = collect(child.stderr);
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
        resolve({
          exitCode: code ?? 128 + (SIGNAL_NUMBERS[signal ?? ''] ?? 0),
          stdout: stdout(),
          stderr: stderr(),
          durationMs: performance.now() - started,
        });
      });
    });
  }
}

function collect(stream: NodeJS.ReadableStream): () => string {
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on('data', (chunk: Buffer) => {
    if (size >= MAX_OUTPUT_BYTES) return;
    chunks.push(chunk);
    size += chunk.length;
  });
  return () => Buffer.concat(chunks).toString('utf8');
}
