// `npm start` as tests run it: the controlplane (compiled main.js when current: current-build.ts)
// in its own process on a data dir, in local mode (CLAWDIE_HOSTD=off), at a free port, with none
// of this process's CLAWDIE_* settings.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { sleep } from '@clawdie/kit/timing';
import { SERVER_ARGV } from './current-build.js';
import { repositoryRoot } from './repository-root.js';

export { repositoryRoot };

/** The replay model of the demo: a server with it runs no demo at start. */
export const demoReplayFile = join(repositoryRoot, 'controlplane', 'demo-site', 'demo-replay.json');

export interface ServerProcess {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<[number | null]>;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** The URL it listens on, once it says so (at most `timeoutMs`); '' if it never did. */
  listening(timeoutMs?: number): Promise<string>;
}

/**
 * Starts the controlplane on `dataDir`; `env` adds CLAWDIE_* settings (e.g. the replay model).
 * `hostname` (root only): in its own UTS namespace under that name, as on another machine.
 * `argv`: node's arguments instead of SERVER_ARGV (e.g. `npm start`'s launcher).
 */
export function startServerProcess(
  dataDir: string,
  env: Record<string, string> = {},
  options: { hostname?: string; argv?: readonly string[] } = {},
): ServerProcess {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('CLAWDIE_')),
  );
  const node = [process.execPath, ...(options.argv ?? SERVER_ARGV)];
  // unshare and sh exec in turn: the child's pid is the controlplane's.
  const [command = '', ...args] = options.hostname
    ? ['unshare', '--uts', 'sh', '-c', 'hostname "$0" && exec "$@"', options.hostname, ...node]
    : node;
  const child = spawn(command, args, {
    cwd: repositoryRoot,
    env: {
      ...inherited,
      CLAWDIE_DATA_DIR: dataDir,
      CLAWDIE_PORT: '0',
      CLAWDIE_HOSTD: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk;
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exited = once(child, 'exit') as Promise<[number | null]>;
  const url = () => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1] ?? '';
  return {
    child,
    exited,
    output: () => output,
    async listening(timeoutMs = 60_000) {
      const deadline = performance.now() + timeoutMs;
      while (!url() && child.exitCode === null && performance.now() < deadline) await sleep(100);
      return url();
    },
  };
}
