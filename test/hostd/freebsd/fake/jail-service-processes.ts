// The fake FreeBSD host's jails run the REAL jail-service: when `jail -c` runs the exec.start the
// driver wrote (`/usr/sbin/daemon … /usr/bin/env CLAWDIE_…=… /usr/local/bin/node <entry>`), this
// spawns the repository's jail-service with a real Chromium as a child process.
//
// What cannot exist here, and is translated (test wiring only, never in hostd):
// - the jail's address: the service listens on 127.0.0.1 at a free port instead of
//   CLAWDIE_JAIL_HOST:CLAWDIE_JAIL_PORT (10.78.x.y:9223 on the jail end of its epair);
// - the jail's files: the token file inside the clone is copied to a private temporary file;
// - the jail's programs: /usr/local/bin/node and /usr/local/bin/chrome are this host's Node and
//   Chromium, run as this user (daemon(8)'s `-u clawdie` is not modelled), without a jail.
// - a desktop jail's display: its Xvfb runs as a real Xvfb here (jail-xvfb.ts), and the service's
//   DISPLAY=:0 is replaced by the display number that server reported;
// - the jail's HOME (made by exec.start inside the clone): the private temporary directory.
// Everything else in the command is passed on as written, and a CLAWDIE_* variable the
// jail-service does not read fails exec.start: a variable it would silently ignore is a bug.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { JAIL_SERVICE_VARIABLES } from '@clawdie/jail-service/variables';
import { nodeEntryArgv } from '../../../../controlplane/src/browser/provider/child-service.js';
import { createFetchHealthCheck } from '../../../../hostd/src/drivers/freebsd/health-check.js';
import { type JailXvfb, startJailXvfb, xvfbArguments } from './jail-xvfb.js';
import type { FakeJailProcesses } from './state.js';

/** Variables the jail-service reads: its schema, the token file it reads by name, its display, HOME. */
const KNOWN = new Set([...JAIL_SERVICE_VARIABLES, 'CLAWDIE_JAIL_TOKEN_FILE', 'DISPLAY', 'HOME']);
/** A display no server here has: what a DISPLAY naming no Xvfb of its jail stands for. */
const NO_SUCH_DISPLAY = ':65000';

interface Running {
  /** The service, once spawned (a desktop jail's waits for its Xvfb). */
  child: ChildProcess | null;
  xvfb: JailXvfb | null;
  dir: string;
  /** The loopback URL it listens on, once its "listening" line came. */
  url: string | null;
  /** The environment exec.start gave it (before translation). */
  env: Record<string, string>;
  /** Settles once every process of the jail has exited (after stop). */
  exited: Promise<void>;
  stopped: boolean;
  stderr: string[];
}

/** `daemon -u U -P F -o F /usr/bin/env K=V… /usr/local/bin/node ENTRY` → its env, or why not. */
export function parseServiceCommand(command: string): Record<string, string> | string {
  const words = command.split(' ');
  const envAt = words.indexOf('/usr/bin/env');
  if (words[0] !== '/usr/sbin/daemon' || envAt < 0)
    return `exec.start: not a daemon(8) env command`;
  const env: Record<string, string> = {};
  let at = envAt + 1;
  for (; at < words.length && words[at]?.includes('='); at += 1) {
    const word = words[at] ?? '';
    env[word.slice(0, word.indexOf('='))] = word.slice(word.indexOf('=') + 1);
  }
  if (words[at] !== '/usr/local/bin/node' || !words[at + 1]?.endsWith('.js')) {
    return `exec.start: ${words.slice(at).join(' ')}: not node with the service's entry`;
  }
  const unknown = Object.keys(env).filter((name) => !KNOWN.has(name));
  if (unknown.length > 0) return `exec.start: the jail-service reads no ${unknown.join(', ')}`;
  return env;
}

export class JailServiceProcesses implements FakeJailProcesses {
  readonly #chromiumPath: string;
  readonly #running = new Map<string, Running>();
  readonly #stopped: Running[] = [];
  /** Every service started, in order, with the environment its exec.start gave it. */
  readonly started: Array<{ name: string; env: Readonly<Record<string, string>> }> = [];
  readonly #check = createFetchHealthCheck();

  constructor(options: { chromiumPath: string }) {
    this.#chromiumPath = options.chromiumPath;
  }

  start(
    name: string,
    commands: readonly string[],
    read: (path: string) => string | undefined,
  ): string | null {
    const command = commands.find((line) => line.includes(' /usr/bin/env '));
    if (command === undefined) return 'exec.start: no jail-service command';
    const env = parseServiceCommand(command);
    if (typeof env === 'string') return env;
    const token = read(env.CLAWDIE_JAIL_TOKEN_FILE ?? '');
    if (token === undefined) return `exec.start: ${env.CLAWDIE_JAIL_TOKEN_FILE}: no such file`;
    if (this.#running.has(name)) return `exec.start: ${name} already runs a service`;
    const dir = mkdtempSync(join(tmpdir(), `fake-jail-${name}-`));
    const tokenFile = join(dir, 'jail.token');
    writeFileSync(tokenFile, token, { mode: 0o400 });
    const xvfbArgs = commands.map(xvfbArguments).find((args) => args !== null) ?? null;
    const xvfb = xvfbArgs === null ? null : startJailXvfb(xvfbArgs);
    const running: Running = {
      child: null,
      xvfb,
      dir,
      url: null,
      env,
      stderr: [],
      stopped: false,
      exited: Promise.resolve(),
    };
    // daemon(8) returns at once in the jail; the service starts while Xvfb comes up. Here the
    // real display number is only known once Xvfb reports it, so the spawn waits for it.
    const spawned = (xvfb?.ready ?? Promise.resolve(null)).then((display) => {
      if (running.stopped) return;
      const jailDisplay = xvfb?.jailDisplay ?? null;
      const translated = {
        ...(env.HOME === undefined ? {} : { HOME: dir }),
        ...(env.DISPLAY === undefined
          ? {}
          : {
              DISPLAY: env.DISPLAY === jailDisplay && display !== null ? display : NO_SUCH_DISPLAY,
            }),
      };
      running.child = this.#spawnService(running, { ...env, ...translated }, tokenFile);
    });
    running.exited = spawned.then(async () => {
      await Promise.all([running.xvfb?.exited, running.child && exitOf(running.child)]);
      rmSync(dir, { recursive: true, force: true });
    });
    this.#running.set(name, running);
    this.started.push({ name, env });
    return null;
  }

  #spawnService(running: Running, env: Record<string, string>, tokenFile: string): ChildProcess {
    const [program, ...args] = nodeEntryArgv('@clawdie/jail-service/main');
    const child = spawn(program, args, {
      env: {
        PATH: '/usr/bin:/bin',
        HOME: running.dir,
        TMPDIR: running.dir,
        ...env,
        CLAWDIE_JAIL_HOST: '127.0.0.1',
        CLAWDIE_JAIL_PORT: '0',
        CLAWDIE_JAIL_TOKEN_FILE: tokenFile,
        CLAWDIE_CHROMIUM_PATH: this.#chromiumPath,
        CLAWDIE_LOG_LEVEL: 'info',
      },
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    createInterface({ input: child.stderr as NonNullable<typeof child.stderr> }).on(
      'line',
      (line) => {
        running.stderr.push(line);
        if (running.stderr.length > 30) running.stderr.shift();
        const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(line)?.[1];
        if (url && line.includes('jail-service listening')) running.url = url;
      },
    );
    return child;
  }

  stop(name: string): void {
    const running = this.#running.get(name);
    if (!running) return;
    this.#running.delete(name);
    this.#stopped.push(running);
    running.stopped = true;
    kill(running, 'SIGTERM');
    const timer = setTimeout(() => kill(running, 'SIGKILL'), 5000);
    void running.exited.then(() => clearTimeout(timer));
  }

  health(name: string, token: string): Promise<boolean> | null {
    const running = this.#running.get(name);
    if (!running) return null;
    if (running.url === null) return Promise.resolve(false);
    return this.#check(running.url, token).then((answer) => answer === true);
  }

  /** The loopback URL standing for jail `name`'s service address, or null. */
  loopbackUrl(name: string): string | null {
    return this.#running.get(name)?.url ?? null;
  }

  /** The environment jail `name`'s exec.start gave its service (as the driver wrote it). */
  environmentOf(name: string): Readonly<Record<string, string>> | null {
    return this.#running.get(name)?.env ?? null;
  }

  /** The real display standing for jail `name`'s X display once its Xvfb is up, or null. */
  async realDisplay(name: string): Promise<string | null> {
    return (await this.#running.get(name)?.xvfb?.ready) ?? null;
  }

  /** Pids of every process (service, Xvfb) of every jail, stopped ones not yet exited included. */
  pids(): number[] {
    return [...this.#running.values(), ...this.#stopped].flatMap((running) =>
      [running.child, running.xvfb?.child].flatMap((child) =>
        child && child.exitCode === null && child.signalCode === null && child.pid
          ? [child.pid]
          : [],
      ),
    );
  }

  /** Names of jails whose service process is still running. */
  runningJails(): string[] {
    return [...this.#running.keys()];
  }

  /** Stopped services whose process has not exited yet (settles after SIGTERM). */
  async exitedAll(): Promise<void> {
    await Promise.all(this.#stopped.map((running) => running.exited));
  }

  /** Test cleanup: kills every service still running and waits for all to exit. */
  async close(): Promise<void> {
    for (const name of this.runningJails()) this.stop(name);
    await this.exitedAll();
  }
}

function kill(running: Running, signal: NodeJS.Signals): void {
  for (const child of [running.child, running.xvfb?.child]) {
    if (!child?.pid || child.exitCode !== null || child.signalCode !== null) continue;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  }
}

function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}
