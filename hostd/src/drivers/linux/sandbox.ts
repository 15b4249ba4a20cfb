// argv builders for the processes inside a clone: each joins the clone's cgroups (a tiny sh
// wrapper writes its own pid, then execs), enters the clone's network namespace, drops to the
// clone's uid, and — for the jail-service — runs inside bubblewrap.
import type { LinuxCloneNames } from './names.js';

export const SH = '/bin/sh';
export const NSENTER = '/usr/bin/nsenter';
export const SETPRIV = '/usr/bin/setpriv';
export const BWRAP = '/usr/bin/bwrap';
export const XVFB = '/usr/bin/Xvfb';

const JOIN_CGROUPS =
  'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 111; shift; n=$((n-1)); done; exec "$@"';

export interface WrapOptions {
  names: LinuxCloneNames;
  /** `cgroup.procs` files to join; empty without cgroups. */
  procsFiles: readonly string[];
  /** False when the host cannot make namespaces: the process stays in the host's network. */
  netns: boolean;
}

/** Prefix argv: join cgroups → enter netns → drop to the clone uid, then run `command`. */
export function wrap(options: WrapOptions, command: readonly string[]): [string, ...string[]] {
  const { names } = options;
  const uid = String(names.uid);
  return [
    SH,
    '-c',
    JOIN_CGROUPS,
    'sh',
    String(options.procsFiles.length),
    ...options.procsFiles,
    ...(options.netns ? [NSENTER, `--net=/run/netns/${names.netns}`, '--'] : []),
    SETPRIV,
    `--reuid=${uid}`,
    `--regid=${uid}`,
    '--clear-groups',
    '--inh-caps=-all',
    '--',
    ...command,
  ];
}

/** A read-only bind: a host path at the same path, or a host `source` at `target` inside. */
export type ReadOnlyBind = string | { source: string; target: string };

export interface SandboxOptions {
  names: LinuxCloneNames;
  /** Read-only directories the service needs (its code, node_modules). */
  readOnly: readonly ReadOnlyBind[];
  /** The display number when the clone has one: only that X socket is bound in. */
  display: number | null;
  cwd: string;
}

/**
 * bubblewrap around the jail-service: new user, pid, ipc, uts and cgroup namespaces; the system
 * (and its font cache) read-only; only the profile writable; a private /tmp. The sandbox dies with
 * hostd.
 */
export function bubblewrap(options: SandboxOptions, command: readonly string[]): string[] {
  const argv = [
    BWRAP,
    '--unshare-user',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--die-with-parent',
    '--hostname',
    options.names.name,
    '--ro-bind',
    '/usr',
    '/usr',
    '--ro-bind',
    '/etc',
    '/etc',
    // The system font cache: without it fontconfig rescans every font and writes a private cache
    // into each fresh profile on every Chromium start (≈150 ms per clone, measured).
    '--ro-bind-try',
    '/var/cache/fontconfig',
    '/var/cache/fontconfig',
    '--symlink',
    'usr/lib',
    '/lib',
    '--symlink',
    'usr/lib64',
    '/lib64',
    '--symlink',
    'usr/bin',
    '/bin',
    '--symlink',
    'usr/sbin',
    '/sbin',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--tmpfs',
    '/tmp',
    '--bind',
    options.names.profileDir,
    '/profile',
  ];
  for (const bind of options.readOnly) {
    if (typeof bind === 'string') argv.push('--ro-bind', bind, bind);
    else argv.push('--ro-bind', bind.source, bind.target);
  }
  if (options.display !== null) {
    const socket = `/tmp/.X11-unix/X${options.display}`;
    argv.push('--bind', socket, socket);
  }
  argv.push('--chdir', options.cwd, '--', ...command);
  return argv;
}

/** Xvfb on `display` (else a free one it picks), reporting it on stdout once ready (`-displayfd 1`). */
export function xvfbCommand(display?: number): string[] {
  return [
    XVFB,
    ...(display === undefined ? [] : [`:${display}`]),
    '-displayfd',
    '1',
    '-screen',
    '0',
    '1280x800x24',
    '-nolisten',
    'tcp',
    '-noreset',
  ];
}
