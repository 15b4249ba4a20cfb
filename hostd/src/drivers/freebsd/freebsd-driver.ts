// FreeBsdDriver: one disposable VNET jail per task from a `zfs clone` of the Bastille-built
// template, limited by rctl and fenced by a PF anchor (freebsd-jails.md §0, §2). Bastille is not
// on this path; every step is verified with the base-system tools.
import { randomBytes } from 'node:crypto';
import type { CommandRunner } from '@clawdie/kit/runner';
import { sleep } from '@clawdie/kit/timing';
import type { CloneNamespace } from '../clone-namespace.js';
import type { InsideConnect, InsideTarget } from '../inside-probe.js';
import { readProbe } from '../inside-probe.js';
import {
  type CloneInfo,
  type CloneIsolation,
  type CloneSpec,
  type DestroyResult,
  type JailDriver,
  JailDriverError,
  type KeepPredicate,
  type ReconcileResult,
  type StartOptions,
} from '../jail-driver.js';
import { DEFAULT_TASK_LOGS, type TaskLogRetention } from '../task-logs.js';
import { jail, preflight } from './commands.js';
import { createResources, startJail } from './create-steps.js';
import { type FreeBsdHost, run } from './freebsd-host.js';
import { createFetchHealthCheck, type HealthCheck } from './health-check.js';
import { createNodeHostFiles, type HostFiles } from './host-files.js';
import { defaultFreeBsdLayout, type FreeBsdLayout, indexOfJailName, taskNames } from './names.js';
import {
  describeClone,
  jailActive,
  observeDataset,
  observedIndices,
  resourcesOf,
  takeInventory,
} from './observe.js';
import { mainRulesProblems } from './pf-main-rules.js';
import { hostPreflight } from './preflight.js';
import { destroyResources, stopJail, verifyAbsent } from './teardown.js';

export interface FreeBsdDriverOptions {
  runner: CommandRunner;
  files?: HostFiles;
  healthCheck?: HealthCheck;
  layout?: FreeBsdLayout;
  /** Milliseconds since the epoch. */
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The per-task bearer token of the jail-service. */
  generateToken?: () => string;
  /** Per command; default 60 s. */
  commandTimeoutMs?: number;
  /** Default deadline for the service's health check; default 20 s. */
  healthTimeoutMs?: number;
  /** Recorded as `hostd:expires` (now + lease), the reaper's hard deadline; default 1 h. */
  leaseSeconds?: number;
  /** Bounds of the task logs kept in `layout.logDir`; default 500 files, 256 MiB. */
  taskLogs?: Pick<TaskLogRetention, 'keep' | 'maxBytes'>;
}

/** The FreeBSD JailDriver. Returns observed state only; one operation per clone name at a time. */
export class FreeBsdDriver implements JailDriver {
  readonly kind = 'freebsd';
  readonly namespace: CloneNamespace;
  readonly #host: FreeBsdHost;
  readonly #generateToken: () => string;
  readonly #healthTimeoutMs: number;
  readonly #leaseSeconds: number;
  readonly #locks = new Map<string, Promise<unknown>>();

  constructor(options: FreeBsdDriverOptions) {
    const layout = options.layout ?? defaultFreeBsdLayout;
    this.#host = {
      runner: options.runner,
      files: options.files ?? createNodeHostFiles(),
      healthCheck: options.healthCheck ?? createFetchHealthCheck(),
      layout,
      now: options.now ?? Date.now,
      sleep: options.sleep ?? sleep,
      commandTimeoutMs: options.commandTimeoutMs ?? 60_000,
      taskLogs: { ...DEFAULT_TASK_LOGS, ...options.taskLogs, dir: layout.logDir },
    };
    this.namespace = this.#host.layout.namespace;
    this.#generateToken = options.generateToken ?? (() => randomBytes(24).toString('base64url'));
    this.#healthTimeoutMs = options.healthTimeoutMs ?? 20_000;
    this.#leaseSeconds = options.leaseSeconds ?? 3600;
  }

  async probe(): Promise<CloneIsolation> {
    const reasons: string[] = [];
    const racct = await run(this.#host, preflight.racctEnabled());
    if (racct.stdout.trim() !== '1') {
      reasons.push('rctl is disabled (set kern.racct.enable=1 in /boot/loader.conf, reboot)');
    }
    const info = await run(this.#host, preflight.pfInfo());
    if (!/Status: Enabled/.test(info.stdout)) reasons.push('PF is not enabled (pfctl -e)');
    const rules = await run(this.#host, preflight.mainRules());
    reasons.push(...mainRulesProblems(rules.stdout, this.#host.layout));
    return { level: reasons.length === 0 ? 'full' : 'reduced', reasons };
  }

  /** What the host lacks before any clone can be made (freebsd-jails.md §2.9); empty when prepared. */
  preflight(): Promise<string[]> {
    return hostPreflight(this.#host);
  }

  create(index: number, spec: CloneSpec): Promise<CloneInfo> {
    const names = taskNames(index, this.#host.layout);
    return this.#locked(names.jail, async () => {
      const existing = resourcesOf(await takeInventory(this.#host), names);
      if (existing.length > 0) {
        const message = `${names.jail} has leftovers (${existing.join(', ')}); reconcile it first`;
        throw new JailDriverError('CLONE_EXISTS', message, { cloneName: names.jail });
      }
      await createResources(this.#host, names, {
        spec,
        token: this.#generateToken(),
        generation: generationOf(this.#host.layout.templateSnapshot),
        expiresEpochSeconds: Math.floor(this.#host.now() / 1000) + this.#leaseSeconds,
      });
      return this.#mustInspect(names.jail);
    });
  }

  start(name: string, options: StartOptions): Promise<CloneInfo> {
    return this.#locked(name, async () => {
      // Two targeted reads decide a start: the clone's dataset (it exists; its display) and
      // whether its jail already runs. The result is observed in full afterwards.
      const index = indexOfJailName(name, this.#host.layout);
      const names = index === null ? null : taskNames(index, this.#host.layout);
      const dataset = names === null ? null : await observeDataset(this.#host, names);
      if (names === null || dataset === null) {
        throw new JailDriverError('CLONE_NOT_FOUND', `${name} does not exist`, { cloneName: name });
      }
      if (await jailActive(this.#host, names)) return this.#mustInspect(name);
      await startJail(this.#host, names, {
        egressProxyUrl: options.egressProxyUrl,
        display: dataset.display,
        healthTimeoutMs: options.timeoutMs ?? this.#healthTimeoutMs,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      return this.#mustInspect(name);
    });
  }

  stop(name: string): Promise<CloneInfo | null> {
    return this.#locked(name, async () => {
      const current = await this.#inspect(name);
      if (current === null) return null;
      await stopJail(this.#host, taskNames(current.index, this.#host.layout));
      return this.#inspect(name);
    });
  }

  destroy(name: string): Promise<DestroyResult> {
    return this.#locked(name, () => this.#destroy(name));
  }

  inspect(name: string): Promise<CloneInfo | null> {
    return this.#inspect(name);
  }

  async list(): Promise<CloneInfo[]> {
    const inventory = await takeInventory(this.#host);
    const clones: CloneInfo[] = [];
    for (const index of observedIndices(inventory, this.#host)) {
      const clone = await describeClone(this.#host, inventory, index);
      if (clone !== null) clones.push(clone);
    }
    return clones;
  }

  async reconcile(keep: KeepPredicate): Promise<ReconcileResult> {
    const kept: string[] = [];
    const destroyed: string[] = [];
    const leftovers: Record<string, readonly string[]> = {};
    for (const clone of await this.list()) {
      // Adopt only a running jail whose service answers with its token (freebsd-jails.md §2.12)
      // and that the caller confirms; everything else is destroyed.
      if ((await this.#answers(clone)) && (await keep(clone))) {
        kept.push(clone.name);
        continue;
      }
      const result = await this.destroy(clone.name);
      destroyed.push(clone.name);
      if (result.leftovers.length > 0) leftovers[clone.name] = result.leftovers;
    }
    return { kept, destroyed, leftovers };
  }

  /** `jexec -U <service user> <jail> node -e …`: as the jail-service, in the jail's own network. */
  async connectFromInside(name: string, target: InsideTarget): Promise<InsideConnect> {
    const index = indexOfJailName(name, this.#host.layout);
    if (index === null) throw new JailDriverError('CLONE_NOT_FOUND', `${name} is not a jail name`);
    const argv = jail.exec(taskNames(index, this.#host.layout), this.#host.layout, target);
    return readProbe(argv, await run(this.#host, argv));
  }

  async #answers(clone: CloneInfo): Promise<boolean> {
    if (clone.state !== 'running' || clone.service === null) return false;
    return (await this.#host.healthCheck(clone.service.url, clone.service.token)) === true;
  }

  async #destroy(name: string): Promise<DestroyResult> {
    const index = indexOfJailName(name, this.#host.layout);
    if (index === null) return { name, leftovers: [] };
    const names = taskNames(index, this.#host.layout);
    await destroyResources(this.#host, names);
    return { name, leftovers: await verifyAbsent(this.#host, names) };
  }

  async #inspect(name: string): Promise<CloneInfo | null> {
    const index = indexOfJailName(name, this.#host.layout);
    if (index === null) return null;
    return describeClone(this.#host, await takeInventory(this.#host), index);
  }

  async #mustInspect(name: string): Promise<CloneInfo> {
    const clone = await this.#inspect(name);
    if (clone === null) {
      throw new JailDriverError('CLONE_NOT_FOUND', `${name} does not exist`, { cloneName: name });
    }
    return clone;
  }

  /** Serialises operations on one clone name; different names run concurrently. */
  #locked<T>(name: string, operation: () => Promise<T>): Promise<T> {
    const previous = this.#locks.get(name) ?? Promise.resolve();
    const next = previous.then(operation, operation);
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    this.#locks.set(name, tail);
    void tail.then(() => {
      if (this.#locks.get(name) === tail) this.#locks.delete(name);
    });
    return next;
  }
}

/** `…@hostd-g0007` → `g0007`. */
function generationOf(snapshot: string): string {
  return snapshot.slice(snapshot.indexOf('@') + 1).replace(/^hostd-/, '');
}
