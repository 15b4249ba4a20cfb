// `npm start` on a Linux or FreeBSD host as root: the controlplane runs hostd as its own child
// process, so every task gets a fresh isolated clone without installing anything else. hostd listens
// on loopback with a one-off token and stops (destroying every clone) when the controlplane stops —
// also when the controlplane dies without stopping it (hostd watches its stdin pipe).
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { HOSTD_VARIABLES } from '@clawdie/hostd/api';
import type { Logger } from 'pino';
import { AppError } from '../../errors.js';
import {
  type ChildEnvironment,
  childEnvironment,
  LOCALE_VARIABLES,
  pickVariables,
} from '../../platform/runner/child-environment.js';
import type {
  ControlplaneLauncher,
  LaunchedProcess,
} from '../../platform/runner/process-launcher.js';
import { freePort, nodeEntryArgv, waitForHealth } from './child-service.js';

export interface EmbeddedHostd {
  url: string;
  token: string;
  process: LaunchedProcess;
  /** SIGTERM: hostd destroys every clone, then exits (SIGKILL only after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

/** What hostd's driver for each platform runs; hostd itself checks the rest (its preflight). */
const requiredPrograms: Partial<Record<NodeJS.Platform, { programs: string[]; install: string }>> =
  {
    linux: {
      programs: ['/usr/bin/bwrap', '/usr/sbin/nft', '/usr/sbin/ip', '/usr/bin/setpriv'],
      install: 'apt-get install bubblewrap nftables iproute2 util-linux',
    },
    // FreeBSD's base system: ZFS, jail(8), PF, rctl(8), ifconfig(8).
    freebsd: {
      programs: ['/sbin/zfs', '/usr/sbin/jail', '/usr/sbin/jls', '/sbin/pfctl', '/usr/bin/rctl'],
      install: 'a FreeBSD base system with ZFS; see docs/operations.md',
    },
  };

/**
 * Null when this host can run hostd (Linux or FreeBSD, as root, with the driver's programs); else
 * why not (for the start-up banner). Whether a FreeBSD host is prepared (template snapshot, tasks
 * dataset) is hostd's own preflight: a start that fails says what is missing.
 */
export function embeddedHostdUnavailable(
  platform: NodeJS.Platform = process.platform,
  uid: number | undefined = process.getuid?.(),
  exists: (path: string) => boolean = existsSync,
): string | null {
  const needs = requiredPrograms[platform];
  if (!needs) return `hostd has no driver for ${platform} (Linux or FreeBSD only)`;
  if (uid !== 0) {
    return platform === 'freebsd'
      ? 'not running as root (hostd needs jail, ZFS, PF and rctl)'
      : 'not running as root (hostd needs namespaces and cgroups)';
  }
  const missing = needs.programs.filter((program) => !exists(program));
  if (missing.length > 0) return `${missing.join(', ')} missing (${needs.install})`;
  return null;
}

export async function startEmbeddedHostd(options: {
  env: Record<string, string | undefined>;
  logger: Logger;
  /** The process's one launcher (its entry made it). */
  launcher: ControlplaneLauncher;
  startTimeoutMs?: number;
  /**
   * Exact `address:port` pairs on the host its clones may reach (the demo shop, a test site);
   * nothing else internal. Replaces any CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL in `env`.
   */
  egressAllowInternal?: readonly string[];
}): Promise<EmbeddedHostd> {
  const token = randomBytes(24).toString('hex');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = await options.launcher.launch({
    argv: nodeEntryArgv('@clawdie/hostd/main'),
    env: hostdEnvironment(options.env, token, port, options.egressAllowInternal ?? []),
    keepStdinOpen: true,
    exitSignal: 'SIGTERM',
    onStderrLine: (line) => options.logger.debug({ hostd: line }, 'hostd log'),
  });
  const ready = await waitForHealth(url, token, child, options.startTimeoutMs ?? 60_000);
  if (!ready.ok) {
    await child.stop(10_000);
    throw new AppError(
      'HOSTD_START_FAILED',
      `hostd did not start: ${ready.reason}\n${child.outputTail()}`,
    );
  }
  options.logger.info({ url, pid: child.pid }, 'hostd (started by the controlplane) ready');
  return { url, token, process: child, stop: (graceMs = 30_000) => child.stop(graceMs) };
}

/**
 * hostd's whole environment: its own variables (an allowlist taken from hostd's config schema),
 * the locale, HOME and TMPDIR — never the controlplane's model key, admin or bot tokens.
 */
export function hostdEnvironment(
  parent: Readonly<Record<string, string | undefined>>,
  token: string,
  port: number,
  egressAllowInternal: readonly string[] = [],
): ChildEnvironment {
  const own = pickVariables(parent, HOSTD_VARIABLES);
  delete own.CLAWDIE_HOSTD_TOKEN_FILE;
  delete own.CLAWDIE_HOSTD_SOCKET;
  return childEnvironment({
    ...pickVariables(parent, LOCALE_VARIABLES),
    HOME: parent.HOME ?? '/root',
    TMPDIR: tmpdir(),
    ...own,
    CLAWDIE_HOSTD_TOKEN: token,
    CLAWDIE_HOSTD_HOST: '127.0.0.1',
    CLAWDIE_HOSTD_PORT: String(port),
    CLAWDIE_HOSTD_POOL_SIZE: parent.CLAWDIE_HOSTD_POOL_SIZE ?? '1',
    CLAWDIE_HOSTD_STOP_WITH_PARENT: '1',
    // Exactly these internal address:port pairs, never the parent's own setting of the variable.
    CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL: egressAllowInternal.join(','),
  });
}

/**
 * For `npm start`: hostd as a child when configured to (`CLAWDIE_HOSTD=auto`, no hostd or
 * jail-service URL) and the host can run it; otherwise null, with the reason passed to `notice`
 * (tasks then share one local browser, which the banner says).
 */
export async function startEmbeddedHostdIfWanted(
  config: { embeddedHostd: { enabled: boolean } },
  options: {
    env: Record<string, string | undefined>;
    logger: Logger;
    launcher: ControlplaneLauncher;
    notice(line: string): void;
    egressAllowInternal?: readonly string[];
  },
): Promise<EmbeddedHostd | null> {
  if (!config.embeddedHostd.enabled) return null;
  const unavailable = embeddedHostdUnavailable();
  if (unavailable) {
    options.notice(
      `per-task clones off: ${unavailable}; tasks share one local browser (run as root on Linux or FreeBSD, or point CLAWDIE_HOSTD_URL at a hostd)`,
    );
    return null;
  }
  const exceptions = options.egressAllowInternal ?? [];
  if (exceptions.length > 0) {
    options.notice(
      `egress exception: clones may reach ${exceptions.join(', ')} on this host when a task names it (audited with every clone); nothing else on the host`,
    );
  }
  try {
    return await startEmbeddedHostd(options);
  } catch (error) {
    options.notice(
      `per-task clones off: ${(error as Error).message.trim()}\ntasks share one local browser (set CLAWDIE_HOSTD=off to skip this attempt)`,
    );
    return null;
  }
}
