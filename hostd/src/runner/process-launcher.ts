// Long-lived child processes (a clone's Xvfb and jail-service), spawned without a shell in their
// own process group. Clones are killed through their cgroup or uid by the driver; this module only
// starts processes, reports their output lines and exit, and kills what it started.
import { type ChildProcess, spawn } from 'node:child_process';

export interface LaunchedProcess {
  readonly pid: number;
  /** Resolves with the exit code (null when killed by a signal) once the process is gone. */
  readonly exited: Promise<number | null>;
  /** Last stderr lines, for error messages. */
  outputTail(): string;
  /** SIGKILL to the process group. Idempotent; never throws. */
  kill(): void;
}

export interface LaunchOptions {
  argv: readonly [string, ...string[]];
  env: Readonly<Record<string, string>>;
  cwd?: string;
  /** Receives every stdout line (e.g. Xvfb's -displayfd answer). Must not throw. */
  onStdoutLine?: (line: string) => void;
  /** Receives every stderr line. Must not throw. */
  onStderrLine?: (line: string) => void;
}

/** Starts long-lived processes; the port behind which the driver's children are made. */
export interface ProcessLauncher {
  launch(options: LaunchOptions): Promise<LaunchedProcess>;
}

const live = new Set<ChildProcess>();

/** Real launcher; children still alive when hostd exits are killed (their group, too). */
export class SpawnLauncher implements ProcessLauncher {
  constructor() {
    installExitHook();
  }
  launch(options: LaunchOptions): Promise<LaunchedProcess> {
    const [command, ...args] = options.argv;
    const child = spawn(command, args, {
      env: options.env,
      cwd: options.cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tail: string[] = [];
    lines(child.stdout, (line) => options.onStdoutLine?.(line));
    lines(child.stderr, (line) => {
      tail.push(line);
      if (tail.length > 30) tail.shift();
      options.onStderrLine?.(line);
    });
    const exited = new Promise<number | null>((resolve) => {
      child.once('exit', (code) => {
        live.delete(child);
        resolve(code);
      });
    });
    const kill = () => killGroup(child);
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('spawn', () => {
        live.add(child);
        resolve({ pid: child.pid ?? -1, exited, outputTail: () => tail.join('\n'), kill });
      });
    });
  }
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of live) killGroup(child);
  });
}

function lines(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void {
  let partial = '';
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    for (const part of parts) onLine(part);
  });
}
