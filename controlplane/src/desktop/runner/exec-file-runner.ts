// The desktop operator's child_process adapter: xdotool and xwd, no shell, killed on timeout/abort.
import { execFile } from 'node:child_process';
import { type CommandRunner, CommandTimeoutError } from '../command-runner.js';

const MAX_BUFFER = 256 * 1024 * 1024;

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Creates the real runner: a fixed `PATH` plus `options.env`; nothing else is inherited. */
export function createExecFileRunner(path = DEFAULT_PATH): CommandRunner {
  return {
    run(argv, options) {
      const [command, ...args] = argv;
      const started = performance.now();
      options.signal?.throwIfAborted();
      return new Promise((resolve, reject) => {
        let timedOut = false;
        const child = execFile(
          command,
          args,
          {
            encoding: 'buffer',
            maxBuffer: MAX_BUFFER,
            env: { PATH: path, ...options.env },
            ...(options.signal ? { signal: options.signal } : {}),
          },
          (error, stdout, stderr) => {
            clearTimeout(timer);
            const durationMs = performance.now() - started;
            if (timedOut) return reject(new CommandTimeoutError(command, options.timeoutMs));
            if (options.signal?.aborted) return reject(options.signal.reason);
            const exitCode = error ? (error as { code?: unknown }).code : 0;
            if (error && typeof exitCode !== 'number') return reject(error);
            resolve({
              exitCode: typeof exitCode === 'number' ? exitCode : 0,
              stdout,
              stderr: stderr.toString('utf8'),
              durationMs,
            });
          },
        );
        const timer = setTimeout(() => {
          timedOut = true;
          child.kill('SIGKILL');
        }, options.timeoutMs);
      });
    },
  };
}
