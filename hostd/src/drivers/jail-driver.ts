// The JailDriver port: how hostd makes, starts, stops, destroys, lists and reconciles one isolated
// browser clone per task. Implemented by LinuxDriver (netns + cgroup + bubblewrap), FreeBsdDriver
// (zfs clone + VNET jail + rctl + PF) and the FakeDriver of the tests; all must pass
// test/hostd/jail-driver.contract.ts. Design: docs in shared notes freebsd-jails.md §0, §2, §3.

import type { CloneNamespace } from './clone-namespace.js';
import type { InsideConnect, InsideTarget } from './inside-probe.js';

export const MIN_CLONE_INDEX = 1;
export const MAX_CLONE_INDEX = 999;

/**
 * `7` → `browsertask007` in the default namespace, `browsertasktest007` in namespace `test`: every
 * resource of a clone derives from its namespace and NNN. Throws on an index outside 1…999 (a bug,
 * not a domain failure).
 */
export function cloneName(index: number, namespace: CloneNamespace): string {
  if (!Number.isInteger(index) || index < MIN_CLONE_INDEX || index > MAX_CLONE_INDEX) {
    throw new Error(`clone index must be an integer in 1…999, got ${index}`);
  }
  return `browsertask${namespace.infix}${String(index).padStart(3, '0')}`;
}

/**
 * `browsertask007` → `7` in the default namespace; null for anything that is not a clone name of
 * `namespace` — another namespace's clones among them (exactly three digits follow the infix, so
 * no name belongs to two namespaces).
 */
export function parseCloneName(name: string, namespace: CloneNamespace): number | null {
  const prefix = `browsertask${namespace.infix}`;
  if (!name.startsWith(prefix)) return null;
  const digits = name.slice(prefix.length);
  if (!/^\d{3}$/.test(digits)) return null;
  const index = Number(digits);
  return index >= MIN_CLONE_INDEX ? index : null;
}

/** Resource limits of one clone. */
export interface CloneLimits {
  /** Hard memory limit (Linux memory.max / FreeBSD rctl memoryuse). */
  memoryMb: number;
  /** Maximum number of processes and threads (Linux pids.max / FreeBSD maxproc). */
  pids: number;
  /** CPU share in percent of ONE core: 100 = one full core, 50 = half a core. */
  cpuPercent: number;
}

/** What a task asks for. */
export interface CloneSpec {
  taskId: string;
  /**
   * Host patterns the clone may reach through its egress proxy: `example.com` matches exactly that
   * host, `*.example.com` matches every subdomain (not the apex). Enforced by hostd's proxy, not
   * by the driver; drivers store it only as metadata.
   */
  allowedDomains: readonly string[];
  limits: CloneLimits;
  /** True: the clone gets its own virtual display (Xvfb) and Chromium runs headful on it. */
  display: boolean;
}

export type IsolationLevel = 'full' | 'reduced';

/**
 * How strongly a clone is isolated. `full` means every mechanism of the platform is in place;
 * `reduced` lists, in `reasons`, each missing one (e.g. "no network namespace: CAP_SYS_ADMIN
 * missing, egress is enforced by the proxy only"). Never reduced silently: `reasons` is empty iff
 * `level` is `full`.
 */
export interface CloneIsolation {
  level: IsolationLevel;
  reasons: readonly string[];
}

/**
 * Observed lifecycle state:
 * - `created`: the resources exist, the jail-service is not running;
 * - `running`: the jail-service process is alive (start() also proved it healthy);
 * - `broken`: some resources exist but the set is incomplete or the service died; destroy it.
 */
export type CloneState = 'created' | 'running' | 'broken';

/** Point-to-point addresses of a clone's link (/30): host end and clone end. */
export interface CloneNetwork {
  hostAddress: string;
  cloneAddress: string;
}

/** Where the clone's jail-service answers and the bearer token it demands. */
export interface CloneService {
  url: string;
  token: string;
}

/** A clone as observed on the OS right now (never a cached belief). */
export interface CloneInfo {
  index: number;
  name: string;
  /** From the clone's own metadata; null when the metadata is gone (an orphan). */
  taskId: string | null;
  state: CloneState;
  /** Null until the service has been started (or when its metadata is gone). */
  service: CloneService | null;
  isolation: CloneIsolation;
  /** Null when the clone has no link of its own (reduced isolation or partial state). */
  network: CloneNetwork | null;
  /** X display name such as `:42` when the clone has one. */
  display: string | null;
  /**
   * The OS resources that currently exist for this clone, as `kind:identifier` strings
   * (`netns:bt007`, `cgroup:/sys/fs/cgroup/.../browsertask007`, `process:1234`, `dir:/run/...`).
   */
  resources: readonly string[];
}

export interface StartOptions {
  /** `http://host:port` of the clone's egress proxy; Chromium in the clone uses only it. */
  egressProxyUrl: string | null;
  /** How long the jail-service may take to answer its health check. Driver default otherwise. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** The outcome of a destroy: `leftovers` lists resources still observed afterwards (ideally none). */
export interface DestroyResult {
  name: string;
  leftovers: readonly string[];
}

export interface ReconcileResult {
  kept: readonly string[];
  destroyed: readonly string[];
  /** Names whose destroy left resources behind, with those resources. */
  leftovers: Readonly<Record<string, readonly string[]>>;
}

export type CpuPriority = 'background' | 'normal';

/** Decides during reconcile whether an observed clone is a confirmed live task to keep. */
export type KeepPredicate = (clone: CloneInfo) => boolean | Promise<boolean>;

/**
 * Makes and removes isolated browser clones on one host.
 *
 * Invariants every driver honours (checked by the contract suite):
 * - Names are `cloneName(index, namespace)`; all OS resources of a clone derive from its namespace
 *   and index, so a clone can be found and removed from the OS alone, without any journal.
 * - A driver observes, lists, destroys and reconciles only clones of its own `namespace`: another
 *   namespace's clones on the same host are invisible to it.
 * - `inspect` / `list` query the OS on every call and return observed state.
 * - `create` rejects with JailDriverError `CLONE_EXISTS` when any resource of that index exists
 *   already (a leftover is reconciled, never reused). On any failure of `create` or `start` the
 *   caller destroys the clone; partial state is fine because `destroy` is idempotent.
 * - `destroy` removes every resource, waits for the kernel to confirm it gone, then re-observes and
 *   returns what is still left (`leftovers` empty = verified clean). Destroying a clone that does not
 *   exist resolves with no leftovers.
 * - `reconcile` destroys every observed clone of its namespace that `keep` does not confirm.
 */
export interface JailDriver {
  /** `linux`, `freebsd`, `fake`: for logs and the health endpoint. */
  readonly kind: string;
  /** The clones this driver owns: it never observes or touches another namespace's. */
  readonly namespace: CloneNamespace;
  /** The isolation this host can give right now (what `create` would produce). */
  probe(): Promise<CloneIsolation>;
  /** Makes the clone's resources (network, limits, profile, display) without starting it. */
  create(index: number, spec: CloneSpec): Promise<CloneInfo>;
  /** Starts the jail-service inside the clone and resolves once it answers its health check. */
  start(name: string, options: StartOptions): Promise<CloneInfo>;
  /** Stops the jail-service (and everything it started); resources stay. Null if unknown. */
  stop(name: string): Promise<CloneInfo | null>;
  /** Removes everything of the clone; idempotent and verified against the OS. */
  destroy(name: string): Promise<DestroyResult>;
  /** The clone as observed now, or null when no resource of it exists. */
  inspect(name: string): Promise<CloneInfo | null>;
  /** Every clone observed on the host, sorted by index. */
  list(): Promise<CloneInfo[]>;
  /** Destroys every observed clone that `keep` does not confirm. */
  reconcile(keep: KeepPredicate): Promise<ReconcileResult>;
  /**
   * Optional: a `background` clone (a warm-pool clone being made) gets a small share of the CPU
   * when clones compete, so refilling the pool does not slow the clone just handed out; `normal`
   * restores the full share. Only relative weights change, never the clone's limits.
   */
  setCpuPriority?(name: string, priority: CpuPriority): Promise<void>;
  /**
   * Optional: the CPU time the clone's processes have used so far, in ms; null when the clone is
   * gone or the host cannot say. The warm pool refills once a clone just handed out is quiet.
   */
  cpuTimeMs?(name: string): Promise<number | null>;
  /**
   * Optional: what the host lacks before any clone can be made (one sentence each, naming the
   * fix); empty when it is prepared. hostd refuses to start on a non-empty answer.
   */
  preflight?(): Promise<string[]>;
  /**
   * Optional: one TCP connection attempt from inside the clone's network (FreeBSD: jexec into the
   * jail; Linux: the clone's network namespace), for `--verify-host`'s firewall checks. Never
   * throws for a refused or dropped connection: that is the answer.
   */
  connectFromInside?(name: string, target: InsideTarget): Promise<InsideConnect>;
}

export type JailDriverErrorCode =
  | 'CLONE_EXISTS'
  | 'CLONE_NOT_FOUND'
  | 'CLONE_CREATE_FAILED'
  | 'CLONE_START_FAILED'
  | 'HOST_UNSUPPORTED';

/** A domain failure of a driver; `code` says which. */
export class JailDriverError extends Error {
  readonly code: JailDriverErrorCode;
  readonly cloneName: string | null;
  constructor(
    code: JailDriverErrorCode,
    message: string,
    options: { cloneName?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.cloneName = options.cloneName ?? null;
  }
}
