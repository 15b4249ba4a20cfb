// Long-lived child processes (a clone's Xvfb and jail-service; the controlplane's local
// jail-service, embedded hostd and Xvfb), spawned without a shell. Every child is tracked by the
// process's one ChildRegistry (killed by its exit hook, recorded for the start-up sweep), and a
// child that must survive no SIGKILL of its parent also gets a parent-death signal and/or a
// stdin pipe to watch (docs/security.md, "Children die with their parent").
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { ChildRegistry } from './child-registry.js';

/** util-linux's setpriv: sets PR_SET_PDEATHSIG, then execs the program (same pid). */
const SETPRIV = '/usr/bin/setpriv';

export interface LaunchedProcess {
  readonly pid: number;
  /** The signal the kernel sends the child when this process dies; null where none is set. */
  readonly parentDeathSignal: NodeJS.Signals | null;
  /** Resolves with the exit code (null when killed by a signal) once the process is gone. */
  readonly exited: Promise<number | null>;
  /** Last stderr lines, for error messages. */
  outputTail(): string;
  /** SIGKILL (to the process group with `processGroup`). Idempotent; never throws. */
  kill(): void;
  /** SIGTERM, then SIGKILL after `graceMs` (default 5 s); resolves once it is gone. Idempotent. */
  stop(graceMs?: number): Promise<void>;
}

export interface LaunchOptions {
  argv: readonly [string, ...string[]];
  /** The child's whole environment: nothing is inherited. */
  env: Readonly<Record<string, string>>;
  cwd?: string;
  /** Run as this uid/gid (the parent must be root); supplementary groups are dropped. */
  user?: { uid: number; gid: number };
  /** Receives every stdout line (e.g. Xvfb's -displayfd answer). Must not throw. */
  onStdoutLine?: (line: string) => void;
  /** Receives every stderr line. Must not throw. */
  onStderrLine?: (line: string) => void;
  /** Start the child in its own process group; `kill` and the exit hook signal the group. */
  processGroup?: boolean;
  /**
   * A stdin pipe left open while the parent lives: the child reads EOF when the parent dies,
   * however it dies (SIGKILL included). The portable watch; the child must act on the EOF.
   */
  keepStdinOpen?: boolean;
  /**
   * Linux: the kernel sends the child this signal when the parent dies, however it dies
   * (PR_SET_PDEATHSIG, set by util-linux `setpriv --pdeathsig` in front of argv: no native
   * code). Ignored where setpriv is missing (FreeBSD): `keepStdinOpen` is the portable watch.
   */
  parentDeathSignal?: NodeJS.Signals;
  /** Sent when the parent exits without stopping the child; default SIGKILL. */
  exitSignal?: NodeJS.Signals;
}

/** Starts long-lived processes; the port behind which hostd's and the controlplane's children are made. */
export interface ProcessLauncher {
  launch(options: LaunchOptions): Promise<LaunchedProcess>;
}

/**
 * Real launcher; rejects when the program cannot be started. Takes the process's one registry,
 * made by its entry point (main.ts / cli.ts): there is no default, so no second registry and no
 * second exit hook can appear by accident.
 */
export class SpawnLauncher implements ProcessLauncher {
  readonly #children: ChildRegistry;
  constructor(children: ChildRegistry) {
    this.#children = children;
  }

  launch(options: LaunchOptions): Promise<LaunchedProcess> {
    const deathSignal = parentDeathSignalFor(options.parentDeathSignal);
    const argv = deathSignal
      ? [SETPRIV, '--pdeathsig', deathSignal, '--', ...options.argv]
      : options.argv;
    const [command = options.argv[0], ...args] = argv;
    const child = spawn(command, args, {
      env: options.env,
      cwd: options.cwd,
      detached: options.processGroup ?? false,
      ...(options.user ? { uid: options.user.uid, gid: options.user.gid } : {}),
      stdio: [options.keepStdinOpen ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    const tail: string[] = [];
    lines(child.stdout, (line) => options.onStdoutLine?.(line));
    lines(child.stderr, (line) => {
      tail.push(line);
      if (tail.length > 30) tail.shift();
      options.onStderrLine?.(line);
    });
    const exited = new Promise<number | null>((resolve) => {
      child.once('exit', (code) => resolve(code));
    });
    const group = options.processGroup ?? false;
    const signal = (name: NodeJS.Signals) => send(child, name, group);
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('spawn', () => {
        const exitSignal = options.exitSignal ?? 'SIGKILL';
        this.#children.track(child, () => signal(exitSignal), {
          signal: exitSignal,
          group,
          command: options.argv[0],
        });
        resolve({
          pid: child.pid ?? -1,
          parentDeathSignal: deathSignal,
          exited,
          outputTail: () => tail.join('\n'),
          kill: () => signal('SIGKILL'),
          async stop(graceMs = 5000) {
            if (child.exitCode !== null || child.signalCode !== null) return;
            signal('SIGTERM');
            const timer = setTimeout(() => signal('SIGKILL'), graceMs);
            await exited;
            clearTimeout(timer);
          },
        });
      });
    });
  }
}

/** The signal to ask the kernel for, or null where it cannot be (not Linux, no setpriv). */
function parentDeathSignalFor(wanted: NodeJS.Signals | undefined): NodeJS.Signals | null {
  if (!wanted || process.platform !== 'linux' || !existsSync(SETPRIV)) return null;
  return wanted;
}

function send(child: ChildProcess, name: NodeJS.Signals, group: boolean): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    if (group) process.kill(-child.pid, name);
    else child.kill(name);
  } catch {
    child.kill(name);
  }
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
