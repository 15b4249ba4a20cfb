// Who a process is, beyond its pid (which the kernel reuses): its pid and its start time. A
// recorded child is signalled only while both still match, so a pid handed to another process
// since the record was written is never killed.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** A pid plus an opaque start stamp; equal stamps mean the same process. */
export interface ProcessIdentity {
  pid: number;
  /** Linux: `<boot id>:<start time in clock ticks since boot>`; elsewhere ps(1)'s `lstart`. */
  start: string;
}

export interface IdentityOptions {
  /** Default `process.platform`: Linux reads /proc, every other platform asks ps(1). */
  platform?: NodeJS.Platform;
  /** The /proc to read (tests point it elsewhere); default `/proc`. */
  procRoot?: string;
}

/**
 * The identity of `pid` now, or null when no such process runs (a zombie counts as gone) or its
 * start time cannot be read. Synchronous, never throws: the registry calls it from its exit hook.
 */
export function readProcessIdentity(
  pid: number,
  options: IdentityOptions = {},
): ProcessIdentity | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  const start =
    (options.platform ?? process.platform) === 'linux'
      ? procStart(pid, options.procRoot ?? '/proc')
      : psStart(pid);
  return start === null ? null : { pid, start };
}

/** True while `identity` names a running process: same pid, same start. */
export function isSameProcess(identity: ProcessIdentity, options: IdentityOptions = {}): boolean {
  return readProcessIdentity(identity.pid, options)?.start === identity.start;
}

function procStart(pid: number, procRoot: string): string | null {
  try {
    const stat = readFileSync(`${procRoot}/${pid}/stat`, 'utf8');
    // Field 2 (the command) may hold spaces and parentheses: count fields after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const state = fields[0];
    const started = fields[19];
    if (state === 'Z' || state === 'X' || !started) return null;
    // The boot id keeps a record from before a reboot (same pids, same tick counts) from matching.
    const boot = readFileSync(`${procRoot}/sys/kernel/random/boot_id`, 'utf8').trim();
    return `${boot}:${started}`;
  } catch {
    return null;
  }
}

function psStart(pid: number): string | null {
  try {
    const output = execFileSync('ps', ['-o', 'stat=,lstart=', '-p', String(pid)], {
      encoding: 'utf8',
      env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LC_ALL: 'C' },
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    }).trim();
    const [state = '', ...started] = output.split(/\s+/);
    if (output === '' || state.startsWith('Z')) return null;
    return started.join(' ');
  } catch {
    return null;
  }
}
