// hostd's only reader of the environment: CLAWDIE_HOSTD_* variables parsed once with zod.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { type FreeBsdHostConfig, freeBsdHostConfig, freeBsdSchema } from './config-freebsd.js';
import {
  type CloneNamespace,
  cloneNamespace,
  DEFAULT_NAMESPACE_NAME,
  NAMESPACE_NAME_PATTERN,
} from './drivers/clone-namespace.js';
import type { TaskLogRetention } from './drivers/task-logs.js';
import { HostdError } from './errors.js';
import { parseAddressPort } from './proxy/address-policy.js';

export type { FreeBsdHostConfig } from './config-freebsd.js';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

/** Comma-separated exact `address:port` entries (`127.0.0.1:41234,[::1]:8080`). */
export const addressPortList = z
  .string()
  .transform((text) =>
    text
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
  )
  .refine((entries) => entries.every((entry) => parseAddressPort(entry) !== null), {
    message: 'must be comma-separated exact address:port entries such as 127.0.0.1:41234',
  });

const schema = z.object({
  ...freeBsdSchema,
  CLAWDIE_HOSTD_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  CLAWDIE_HOSTD_TOKEN_FILE: z.string().min(1).optional(),
  CLAWDIE_HOSTD_HOST: z.string().min(1).default('127.0.0.1'),
  CLAWDIE_HOSTD_PORT: int(0, 65_535).default(7070),
  /** A unix socket path; when set, hostd listens there instead of host:port. */
  CLAWDIE_HOSTD_SOCKET: z.string().min(1).optional(),
  /** Overrides the driver picked from the platform (freebsd → freebsd, linux → linux). */
  CLAWDIE_HOSTD_DRIVER: z
    .enum(['linux', 'freebsd'], {
      message:
        'must be linux or freebsd (production hostd has no fake driver: tests inject theirs)',
    })
    .optional(),
  /**
   * Which clones on the host are this hostd's: their names carry it, and reconcile never touches
   * another namespace's. One hostd per namespace per host (the owner lock refuses a second).
   */
  CLAWDIE_HOSTD_NAMESPACE: z
    .string()
    .regex(
      NAMESPACE_NAME_PATTERN,
      'must be 1–8 characters, a lowercase letter then lowercase letters or digits (e.g. test2)',
    )
    .default(DEFAULT_NAMESPACE_NAME),
  CLAWDIE_HOSTD_POOL_SIZE: int(0, 64).default(0),
  /**
   * Ready clones kept at most while tasks arrive (the pool grows by one per clone asked for in the
   * last window, plus the asks waiting); default twice CLAWDIE_HOSTD_POOL_SIZE. Never below it.
   */
  CLAWDIE_HOSTD_POOL_MAX: int(0, 64).optional(),
  /** How far back arrivals raise the pool's target; a quiet window brings it back down. */
  CLAWDIE_HOSTD_POOL_WINDOW_MS: int(1000, 3_600_000).default(60_000),
  /**
   * After a hand-out the pool refills once the clone handed out goes quiet (Linux: its cgroup's
   * CPU time), at the latest after this long; 0 refills at once.
   */
  CLAWDIE_HOSTD_POOL_QUIET_WAIT_MS: int(0, 60_000).default(3000),
  /** First warm-pool retry delay after a failed warm clone; doubles per failure up to the max. */
  CLAWDIE_HOSTD_POOL_RETRY_MIN_MS: int(10, 600_000).default(1000),
  CLAWDIE_HOSTD_POOL_RETRY_MAX_MS: int(10, 3_600_000).default(60_000),
  /** How long an ended lease and its egress refusals are kept (its clone name is not reused). */
  CLAWDIE_HOSTD_LEASE_RETENTION_MS: int(0, 86_400_000).default(600_000),
  CLAWDIE_HOSTD_MEMORY_MB: int(64, 65_536).default(2048),
  CLAWDIE_HOSTD_PIDS: int(16, 65_536).default(512),
  CLAWDIE_HOSTD_CPU_PERCENT: int(5, 6400).default(100),
  CLAWDIE_HOSTD_DISPLAY: bool.default(false),
  CLAWDIE_HOSTD_STATE_DIR: z.string().min(1).default('/run/clawdie-hostd'),
  CLAWDIE_HOSTD_CGROUP_ROOT: z.string().min(1).default('/sys/fs/cgroup'),
  CLAWDIE_HOSTD_CGROUP_NAME: z
    .string()
    .regex(/^[a-z0-9-]+$/)
    .default('clawdie-hostd'),
  CLAWDIE_HOSTD_UID_BASE: int(1000, 4_000_000).default(20_000),
  CLAWDIE_HOSTD_PROXY_PORT: int(1, 65_535).default(3128),
  CLAWDIE_HOSTD_SERVICE_PORT: int(1, 65_535).default(9223),
  CLAWDIE_HOSTD_START_TIMEOUT_MS: int(1000, 300_000).default(30_000),
  /** Task logs kept on the host: FreeBSD console logs, any driver's failed-start logs. */
  CLAWDIE_HOSTD_LOG_DIR: z
    .string()
    .regex(/^(\/[\w.-]+)+$/, 'must be an absolute path without a trailing slash')
    .default('/var/log/hostd'),
  /** At most this many archived task logs stay in CLAWDIE_HOSTD_LOG_DIR (oldest removed first) … */
  CLAWDIE_HOSTD_TASK_LOGS_KEEP: int(1, 100_000).default(500),
  /** … holding at most this many MiB together. */
  CLAWDIE_HOSTD_TASK_LOGS_MAX_MB: int(1, 1_000_000).default(256),
  /**
   * The only way a clone reaches loopback, link-local, the host's own or a clone's address: these
   * exact `address:port` pairs (the task's allowlist must still name them). Logged at start and
   * audited with every clone.
   */
  CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL: addressPortList.optional(),
  /** Let clones reach private ranges (intranet sites); the host, loopback and clones stay blocked. */
  CLAWDIE_HOSTD_EGRESS_ALLOW_PRIVATE: bool.default(false),
  /** Copied into each clone's profile. */
  CLAWDIE_HOSTD_TEMPLATE_PROFILE: z.string().min(1).optional(),
  /** Passed to the clones' jail-service; unset, it picks (the headless shell when installed). */
  CLAWDIE_CHROMIUM_PATH: z.string().min(1).optional(),
  /** Stop (destroying every clone) when stdin reaches EOF: set by a parent that runs hostd. */
  CLAWDIE_HOSTD_STOP_WITH_PARENT: bool.default(false),
  CLAWDIE_LOG_LEVEL: z
    .enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'])
    .default('info'),
});

/** Every variable hostd reads: what a parent passes on to it (an allowlist). */
export const HOSTD_VARIABLES: readonly string[] = Object.freeze(Object.keys(schema.shape));

export interface HostdConfig {
  token: string;
  host: string;
  port: number;
  socket: string | null;
  driver: HostdDriverKind;
  /** This hostd's clone namespace (CLAWDIE_HOSTD_NAMESPACE; `default` keeps today's names). */
  namespace: CloneNamespace;
  /** The FreeBSD driver's host layout (used only when `driver` is freebsd). */
  freebsd: FreeBsdHostConfig;
  poolSize: number;
  /** The pool's ceiling under demand (≥ poolSize) and the window arrivals count in. */
  poolMax: number;
  poolWindowMs: number;
  /** The longest a refill waits for the clone just handed out to go quiet. */
  poolQuietWaitMs: number;
  poolRetry: { minMs: number; maxMs: number };
  leaseRetentionMs: number;
  limits: { memoryMb: number; pids: number; cpuPercent: number };
  display: boolean;
  stateDir: string;
  cgroupRoot: string;
  cgroupName: string;
  uidBase: number;
  proxyPort: number;
  servicePort: number;
  startTimeoutMs: number;
  /** Exact `address:port` exceptions to the internal-address block (empty = none). */
  egressAllowInternal: readonly string[];
  /** Clones may reach private ranges (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7). */
  egressAllowPrivate: boolean;
  templateProfile: string | null;
  /** CLAWDIE_CHROMIUM_PATH for the clones; null: the jail-service's own choice. */
  chromiumPath: string | null;
  logLevel: z.infer<typeof schema>['CLAWDIE_LOG_LEVEL'];
  /** Where task logs stay after their clone is gone, and how many of them. */
  taskLogs: TaskLogRetention;
  stopWithParent: boolean;
}

export type HostdDriverKind = 'linux' | 'freebsd';

/** The driver for `platform` unless CLAWDIE_HOSTD_DRIVER names one. */
function pickDriver(
  override: HostdDriverKind | undefined,
  platform: NodeJS.Platform,
): HostdDriverKind {
  if (override) return override;
  if (platform === 'freebsd' || platform === 'linux') return platform;
  throw new HostdError(
    'CONFIG_INVALID',
    `hostd has no driver for ${platform}: run it on FreeBSD or Linux (CLAWDIE_HOSTD_DRIVER=freebsd|linux)`,
  );
}

export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Parses the environment into a frozen config; throws HostdError CONFIG_INVALID naming each bad
 * variable. The driver follows `platform` unless CLAWDIE_HOSTD_DRIVER overrides it.
 */
export function loadConfig(
  env: Environment,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
  platform: NodeJS.Platform = process.platform,
): Readonly<HostdConfig> {
  const present = Object.fromEntries(
    Object.entries(env).filter(([name, value]) => name.startsWith('CLAWDIE_') && value !== ''),
  );
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new HostdError('CONFIG_INVALID', `invalid hostd configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  let token = e.CLAWDIE_HOSTD_TOKEN;
  if (token === undefined && e.CLAWDIE_HOSTD_TOKEN_FILE !== undefined) {
    token = readFile(e.CLAWDIE_HOSTD_TOKEN_FILE).trim();
  }
  if (!token) {
    throw new HostdError(
      'CONFIG_INVALID',
      'CLAWDIE_HOSTD_TOKEN is missing: set CLAWDIE_HOSTD_TOKEN or CLAWDIE_HOSTD_TOKEN_FILE',
    );
  }
  return Object.freeze({
    token,
    host: e.CLAWDIE_HOSTD_HOST,
    port: e.CLAWDIE_HOSTD_PORT,
    socket: e.CLAWDIE_HOSTD_SOCKET ?? null,
    driver: pickDriver(e.CLAWDIE_HOSTD_DRIVER, platform),
    namespace: cloneNamespace(e.CLAWDIE_HOSTD_NAMESPACE),
    freebsd: freeBsdHostConfig(e),
    poolSize: e.CLAWDIE_HOSTD_POOL_SIZE,
    poolMax: Math.max(
      e.CLAWDIE_HOSTD_POOL_SIZE,
      e.CLAWDIE_HOSTD_POOL_MAX ?? Math.min(64, 2 * e.CLAWDIE_HOSTD_POOL_SIZE),
    ),
    poolWindowMs: e.CLAWDIE_HOSTD_POOL_WINDOW_MS,
    poolQuietWaitMs: e.CLAWDIE_HOSTD_POOL_QUIET_WAIT_MS,
    poolRetry: {
      minMs: e.CLAWDIE_HOSTD_POOL_RETRY_MIN_MS,
      maxMs: Math.max(e.CLAWDIE_HOSTD_POOL_RETRY_MIN_MS, e.CLAWDIE_HOSTD_POOL_RETRY_MAX_MS),
    },
    leaseRetentionMs: e.CLAWDIE_HOSTD_LEASE_RETENTION_MS,
    limits: {
      memoryMb: e.CLAWDIE_HOSTD_MEMORY_MB,
      pids: e.CLAWDIE_HOSTD_PIDS,
      cpuPercent: e.CLAWDIE_HOSTD_CPU_PERCENT,
    },
    display: e.CLAWDIE_HOSTD_DISPLAY,
    stateDir: e.CLAWDIE_HOSTD_STATE_DIR,
    cgroupRoot: e.CLAWDIE_HOSTD_CGROUP_ROOT,
    cgroupName: e.CLAWDIE_HOSTD_CGROUP_NAME,
    uidBase: e.CLAWDIE_HOSTD_UID_BASE,
    proxyPort: e.CLAWDIE_HOSTD_PROXY_PORT,
    servicePort: e.CLAWDIE_HOSTD_SERVICE_PORT,
    startTimeoutMs: e.CLAWDIE_HOSTD_START_TIMEOUT_MS,
    egressAllowInternal: e.CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL ?? [],
    egressAllowPrivate: e.CLAWDIE_HOSTD_EGRESS_ALLOW_PRIVATE,
    templateProfile: e.CLAWDIE_HOSTD_TEMPLATE_PROFILE ?? null,
    chromiumPath: e.CLAWDIE_CHROMIUM_PATH ?? null,
    logLevel: e.CLAWDIE_LOG_LEVEL,
    taskLogs: Object.freeze({
      dir: e.CLAWDIE_HOSTD_LOG_DIR,
      keep: e.CLAWDIE_HOSTD_TASK_LOGS_KEEP,
      maxBytes: e.CLAWDIE_HOSTD_TASK_LOGS_MAX_MB * 1024 * 1024,
    }),
    stopWithParent: e.CLAWDIE_HOSTD_STOP_WITH_PARENT,
  });
}

/** A copy of the process environment: the one sanctioned way for `main.ts` to read it. */
export function processEnvironment(): Environment {
  return { ...process.env };
}
