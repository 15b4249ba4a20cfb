// The Xvfb a desktop jail's exec.start runs (`daemon … /usr/local/bin/Xvfb :0 -screen 0 WxHxD …`),
// as a real Xvfb on this host. What is translated (test wiring only): each FreeBSD jail has its own
// /tmp, so `:0` never collides there; here display numbers are host-wide, so the jail's `:N` word
// is replaced by `-displayfd 1` (the server picks a free number and reports it once it accepts
// connections). Every other word is passed on as written, so a word the real Xvfb rejects makes
// it exit 1 ("Unrecognized option") as it would in the jail.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { bsdGetopt } from '../grammar/getopt.js';
import { DAEMON_OPTIONS } from '../grammar/system.js';

const JAIL_XVFB = '/usr/local/bin/Xvfb';

/** The Xvfb words of a `daemon … /usr/local/bin/Xvfb …` exec.start command, or null. */
export function xvfbArguments(command: string): string[] | null {
  const words = command.split(' ');
  if (words[0] !== '/usr/sbin/daemon') return null;
  const [program, ...args] = bsdGetopt(words.slice(1), DAEMON_OPTIONS).operands;
  return program === JAIL_XVFB ? args : null;
}

export interface JailXvfb {
  child: ChildProcess;
  /** The jail's display word (`:0`). */
  jailDisplay: string | null;
  /** The real display standing for it once it accepts connections; null when Xvfb exited first. */
  ready: Promise<string | null>;
  /** Xvfb's exit code once it exited (null while running or when killed by a signal). */
  exitCode(): number | null;
  exited: Promise<void>;
}

export function startJailXvfb(args: readonly string[], program = '/usr/bin/Xvfb'): JailXvfb {
  const jailDisplay = args.find((word) => word.startsWith(':')) ?? null;
  const translated = ['-displayfd', '1', ...args.filter((word) => word !== jailDisplay)];
  const child = spawn(program, translated, {
    env: { PATH: '/usr/bin:/bin' },
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('error', () => undefined);
  const ready = new Promise<string | null>((resolve) => {
    createInterface({ input: child.stdout as NonNullable<typeof child.stdout> }).once(
      'line',
      (line) => resolve(/^\d+$/.test(line.trim()) ? `:${line.trim()}` : null),
    );
    void exited.then(() => resolve(null));
  });
  return { child, jailDisplay, ready, exitCode: () => child.exitCode, exited };
}
