// hostd as a child process (root; its compiled main.js when current: test/support/current-build.ts):
// resolves once it logs "hostd listening", rejects with its exit code and stderr (HostdExit) when
// it exits first. Optionally in its own mount namespace after setup commands that take a privilege
// away there only.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { HOSTD_ARGV } from '../../support/current-build.js';

export interface LogLine {
  level: number;
  msg: string;
  reasons?: string[];
  address?: { port: number };
  [field: string]: unknown;
}

export interface RunningHostd {
  pid: number;
  url: string;
  /** Every log line up to "hostd listening". */
  startLog: LogLine[];
  /** SIGTERM (hostd destroys its clones), then its exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL (its clones stay behind, as after a crash); resolves once it has exited. */
  kill(): Promise<void>;
}

export class HostdExit extends Error {
  readonly exitCode: number | null;
  readonly stderr: string;
  constructor(exitCode: number | null, stderr: string) {
    super(`hostd exited with ${exitCode}:\n${stderr}`);
    this.exitCode = exitCode;
    this.stderr = stderr;
  }
}

export function startHostdProcess(
  env: Record<string, string>,
  options: {
    mountSetup?: readonly string[];
    /** hostd stops (destroying its clones) when this process dies (CLAWDIE_HOSTD_STOP_WITH_PARENT). */
    stopWithParent?: boolean;
  } = {},
): Promise<RunningHostd> {
  const node = [process.execPath, ...HOSTD_ARGV];
  const [command, ...args] = options.mountSetup
    ? [
        '/usr/bin/unshare',
        '-m',
        '/bin/sh',
        '-c',
        [...options.mountSetup, 'exec "$@"'].join(' && '),
        'sh',
        ...node,
      ]
    : node;
  const child = spawn(command as string, args, {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      CLAWDIE_HOSTD_PORT: '0',
      ...env,
      ...(options.stopWithParent ? { CLAWDIE_HOSTD_STOP_WITH_PARENT: 'true' } : {}),
    },
    // stdin: a pipe this process holds open while it lives (hostd stops at its EOF).
    stdio: [options.stopWithParent ? 'pipe' : 'ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const stderr = child.stderr;
  if (!stderr) throw new Error('hostd was started without a stderr pipe');
  const lines: string[] = [];
  const startLog: LogLine[] = [];
  return new Promise((resolve, reject) => {
    createInterface({ input: stderr }).on('line', (text) => {
      lines.push(text);
      let line: LogLine;
      try {
        line = JSON.parse(text) as LogLine;
      } catch {
        return;
      }
      startLog.push(line);
      if (line.msg !== 'hostd listening') return;
      resolve({
        pid: child.pid ?? -1,
        url: `http://127.0.0.1:${line.address?.port}`,
        startLog: [...startLog],
        stop: async () => {
          child.kill('SIGTERM');
          return exited;
        },
        kill: async () => {
          child.kill('SIGKILL');
          await exited;
        },
      });
    });
    void exited.then((code) => reject(new HostdExit(code, lines.join('\n'))));
  });
}
