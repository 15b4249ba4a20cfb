// The controlplane's only child_process user: starts helper processes (a local jail-service) and
// guarantees they die with us, so a crash never leaves an orphan browser behind.
import { type ChildProcess, spawn } from 'node:child_process';
import type { ChildEnvironment } from './child-environment.js';

export interface LaunchedProcess {
  readonly pid: number;
  /** Resolves with the exit code (null when killed by a signal) once the process has exited. */
  readonly exited: Promise<number | null>;
  /** The last lines the process wrote to stderr, for error messages. */
  stderrTail(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. Idempotent. */
  stop(graceMs?: number): Promise<void>;
}

export interface LaunchOptions {
  argv: [string, ...string[]];
  /** The child's whole environment (nothing is inherited): build it with `childEnvironment`. */
  env: ChildEnvironment;
  cwd?: string;
  /**
   * Run as this uid/gid (the controlplane must be root); supplementary groups are dropped. The
   * local browser uses it to run without root (see jails/local-browser-user.ts).
   */
  user?: { uid: number; gid: number };
  /** Receives each stderr line (the child's JSON logs). Must not throw. */
  onStderrLine?: (line: string) => void;
  /** Receives each stdout line; stdout is ignored without it. Must not throw. */
  onStdoutLine?: (line: string) => void;
  /**
   * Give the child a stdin pipe that stays open while we live: it reads EOF when we die, however
   * we die (hostd stops and cleans up on that EOF).
   */
  keepStdinOpen?: boolean;
  /**
   * Sent when this process exits without stopping the child; default SIGKILL. SIGTERM lets a
   * child that cleans up on its own (hostd destroying its clones) do so after we are gone.
   */
  exitSignal?: NodeJS.Signals;
}

const live = new Map<ChildProcess, NodeJS.Signals>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const [child, signal] of live) child.kill(signal);
  });
}

/** Spawns `argv` without a shell. Rejects if the program cannot be started. */
export function launchProcess(options: LaunchOptions): Promise<LaunchedProcess> {
  installExitHook();
  const [command, ...args] = options.argv;
  const child = spawn(command, args, {
    env: options.env,
    cwd: options.cwd,
    ...(options.user ? { uid: options.user.uid, gid: options.user.gid } : {}),
    stdio: [
      options.keepStdinOpen ? 'pipe' : 'ignore',
      options.onStdoutLine ? 'pipe' : 'ignore',
      'pipe',
    ],
  });
  if (options.onStdoutLine) splitLines(child.stdout, options.onStdoutLine);
  const tail: string[] = [];
  let partial = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      tail.push(line);
      if (tail.length > 30) tail.shift();
      options.onStderrLine?.(line);
    }
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      live.delete(child);
      resolve(code);
    });
  });
  return new Promise((resolve, reject) => {
    child.once('error', (error) => reject(error));
    child.once('spawn', () => {
      live.set(child, options.exitSignal ?? 'SIGKILL');
      resolve({
        pid: child.pid ?? -1,
        exited,
        stderrTail: () => tail.join('\n'),
        async stop(graceMs = 5000) {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
          await exited;
          clearTimeout(timer);
        },
      });
    });
  });
}

function splitLines(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void {
  let partial = '';
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
}
