// The clone lifecycle behind hostd's API: allocate an index, make the clone (JailDriver) behind its
// egress proxy, start it, lease it (from the warm pool when one fits; at most `maxLeases`:
// lease-cap.ts), always destroy it. Each per-clone call presents its lease; the OS is the driver's.

import type { Clone, CreateCloneRequest, EgressRefusal, LeasedClone } from '../api/schema.js';
import {
  type CloneInfo,
  type CloneLimits,
  type CloneService,
  type CloneSpec,
  cloneName,
  MAX_CLONE_INDEX,
  MIN_CLONE_INDEX,
} from '../drivers/jail-driver.js';
import { HostdError } from '../errors.js';
import { type AddressPolicy, createAddressPolicy } from '../proxy/address-policy.js';
import { type EgressProxy, startEgressProxy } from '../proxy/egress-proxy.js';
import type { CloneManagerOptions } from './clone-manager-options.js';
import { type CloneView, toClone, toLeasedClone } from './clone-view.js';
import { DemandPool } from './demand-pool.js';
import { LeaseCap } from './lease-cap.js';
import { type LeaseRecord, LeaseRegistry } from './lease-registry.js';
import { fitsPool, poolSpecOf } from './pool-spec.js';
import { RefusalLog } from './refusal-log.js';
import type { WarmPoolStatus } from './warm-pool.js';

/** One clone on the OS with its proxy; `lease` is the lease it is under now (warm, then task). */
interface Holding extends CloneView {
  display: boolean;
}

export class CloneManager {
  readonly refusals = new RefusalLog();
  readonly leases: LeaseRegistry;
  readonly #options: CloneManagerOptions;
  /** Clones under a task lease, by name. */
  readonly #held = new Map<string, Holding>();
  /** Teardowns under way, by lease id: a repeated DELETE of the same lease waits for the first. */
  readonly #destroying = new Map<string, ReturnType<CloneManager['destroy']>>();
  readonly #pool: DemandPool<Holding>;
  #closed = false;
  readonly #inflight = new Set<Promise<unknown>>();
  readonly #addressPolicy: AddressPolicy;
  readonly #cap = new LeaseCap(() => this.#held.size);

  constructor(options: CloneManagerOptions) {
    this.#options = options;
    this.#addressPolicy = options.addressPolicy ?? createAddressPolicy();
    this.leases = new LeaseRegistry({
      minIndex: options.indexRange?.min ?? MIN_CLONE_INDEX,
      maxIndex: options.indexRange?.max ?? MAX_CLONE_INDEX,
      retentionMs: options.leaseRetentionMs ?? 600_000,
      now: options.now ?? Date.now,
      onForget: (lease) => this.refusals.purge(lease.leaseId),
    });
    this.#pool = new DemandPool({
      settings: options,
      make: () => this.#make(poolSpecOf(this.#options), true),
      discard: (holding) => this.#teardown(holding).then(() => undefined),
      nameOf: (holding) => holding.info.name,
    });
  }

  /** Destroys every clone on the host: hostd keeps no journal, so none is a confirmed live task. */
  async reconcile() {
    return this.#options.driver.reconcile(() => false);
  }

  /** A ready clone under a new lease, pooled if one fits; HOST_FULL past `maxLeases`. */
  create(request: CreateCloneRequest): Promise<LeasedClone> {
    return this.#cap.admit(request.maxLeases, () => this.#create(request));
  }

  async #create(request: CreateCloneRequest): Promise<LeasedClone> {
    const started = performance.now();
    const defaults = this.#options.defaultLimits;
    const limits: CloneLimits = {
      memoryMb: request.limits?.memoryMb ?? defaults.memoryMb,
      pids: request.limits?.pids ?? defaults.pids,
      cpuPercent: request.limits?.cpuPercent ?? defaults.cpuPercent,
    };
    const display = request.display ?? this.#options.defaultDisplay;
    const allowedDomains = [...(request.allowedDomains ?? [])];
    const pooled = this.#pool.take(fitsPool(this.#options, limits, display));
    if (pooled) {
      // Switch leases in one synchronous step: refusals before it stay with the warm-up lease.
      const warm = pooled.lease;
      const { name, index } = pooled.info;
      pooled.lease = this.leases.issue(name, index, request.taskId, request.holder ?? null);
      pooled.proxy.setAllowedDomains(allowedDomains);
      this.leases.end(warm);
      Object.assign(pooled, { allowedDomains, fromPool: true });
      this.#held.set(pooled.info.name, pooled);
      await this.#options.driver.setCpuPriority?.(pooled.info.name, 'normal').catch((error) => {
        this.#options.onError?.('cannot restore the CPU share of a warm clone', error);
      });
      pooled.readyMs = performance.now() - started;
      return toLeasedClone(pooled, this.#addressPolicy.exceptions);
    }
    const spec = { taskId: request.taskId, allowedDomains, limits, display };
    const made = this.#make(spec, false, request.holder ?? null);
    const holding = await this.#track(made).finally(() => this.#pool.waited());
    if (this.#closed) {
      await this.#teardown(holding);
      throw new HostdError('CLONE_FAILED', 'hostd is shutting down', 503);
    }
    holding.readyMs = performance.now() - started;
    this.#held.set(holding.info.name, holding);
    return toLeasedClone(holding, this.#addressPolicy.exceptions);
  }

  /** The clone with its observed state, if `leaseId` is its live lease (else a lease error). */
  async get(name: string, leaseId: string | undefined): Promise<Clone> {
    const holding = this.#holding(name, leaseId);
    const info = await this.#options.driver.inspect(name);
    if (!info) throw new HostdError('CLONE_NOT_FOUND', `${name} is gone from the host`, 404);
    return this.#observed(holding, info);
  }

  /** The held clone as shown, with its state as the OS reports it now. */
  #observed(holding: Holding, info: CloneInfo): Clone {
    const service = info.service ?? holding.info.service;
    return toClone({ ...holding, info: { ...info, service } }, this.#addressPolicy.exceptions);
  }

  async list(): Promise<Clone[]> {
    const observed = new Map((await this.#options.driver.list()).map((info) => [info.name, info]));
    const clones: Clone[] = [];
    for (const holding of this.#held.values()) {
      const info = observed.get(holding.info.name);
      if (info) clones.push(this.#observed(holding, info));
    }
    return clones.sort((a, b) => a.index - b.index);
  }

  /**
   * Ends the lease and destroys its clone. Idempotent for the same lease (an ended lease answers
   * "destroyed, nothing left"); any other lease is refused and touches nothing.
   */
  async destroy(
    name: string,
    leaseId: string | undefined,
  ): Promise<{ name: string; leftovers: readonly string[] }> {
    const lease = this.leases.check(name, leaseId);
    const destroying = this.#destroying.get(lease.leaseId);
    if (destroying) return destroying;
    const holding = this.#held.get(name);
    if (holding?.lease !== lease) {
      if (lease.endedAt !== null) return { name, leftovers: [] };
      throw new HostdError('LEASE_MISMATCH', `${name} is not held under that lease`, 409);
    }
    this.#held.delete(name);
    const teardown = this.#teardown(holding);
    this.#destroying.set(lease.leaseId, teardown);
    void teardown.finally(() => this.#destroying.delete(lease.leaseId)).catch(() => undefined);
    return teardown;
  }

  /**
   * The jail-service of the clone `leaseId` holds now (what the relay forwards to); a lease error
   * (404/409) when it is not the clone's current lease.
   */
  serviceOf(name: string, leaseId: string | undefined): CloneService {
    const { service } = this.#holding(name, leaseId).info;
    if (!service) throw new HostdError('CLONE_UNREACHABLE', `${name} has no jail-service`, 502);
    return service;
  }

  /** The refusals made under the lease after `after`; works until the ended lease is forgotten. */
  refusalsOf(name: string, leaseId: string | undefined, after = 0): EgressRefusal[] {
    const lease = this.leases.check(name, leaseId);
    return this.refusals.list({ leaseId: lease.leaseId, after });
  }

  /**
   * Ends the task leases `matches` picks (default every one: a restarted caller's orphans) and
   * destroys their clones; the pool and every other lease stay.
   */
  async revoke(
    matches: (lease: LeaseRecord) => boolean = () => true,
  ): Promise<{ lease: LeaseRecord; leftovers: string[] }[]> {
    const held = [...this.#held.values()].filter((holding) => matches(holding.lease));
    for (const holding of held) this.#held.delete(holding.info.name);
    return Promise.all(
      held.map(async (holding) => ({
        lease: holding.lease,
        leftovers: [...(await this.#teardown(holding)).leftovers],
      })),
    );
  }

  poolStatus(): WarmPoolStatus {
    return this.#pool.status();
  }

  leaseCount(): number {
    return this.#held.size;
  }

  /** Starts background creation until the pool holds `poolSize` ready clones. Never throws. */
  fillPool(): void {
    this.#pool.fill();
  }

  /** Resolves once the pool is full (or `timeoutMs` passed); for start-up and tests. */
  poolReady(timeoutMs = 60_000): Promise<boolean> {
    return this.#pool.ready(timeoutMs);
  }

  /** Destroys every clone this manager made (leased and pooled); stops refilling. */
  async close(): Promise<void> {
    this.#closed = true;
    const pooled = await this.#pool.close();
    await Promise.allSettled([...this.#inflight]);
    await Promise.all(pooled.map((holding) => this.#teardown(holding)));
    await this.revoke();
  }

  #holding(name: string, leaseId: string | undefined): Holding {
    const lease = this.leases.check(name, leaseId);
    const holding = this.#held.get(name);
    if (holding?.lease !== lease) {
      throw new HostdError('CLONE_NOT_FOUND', `the lease on ${name} has ended`, 404);
    }
    return holding;
  }

  #track<T>(promise: Promise<T>): Promise<T> {
    this.#inflight.add(promise);
    void promise.finally(() => this.#inflight.delete(promise)).catch(() => undefined);
    return promise;
  }

  async #make(spec: CloneSpec, warm = false, holder: string | null = null): Promise<Holding> {
    const { driver } = this.#options;
    const observed = new Set((await driver.list()).map((info) => info.index));
    const index = this.leases.allocate(observed);
    const name = cloneName(index, driver.namespace);
    const initial = this.leases.issue(name, index, spec.taskId, holder);
    // The proxy reports each refusal under the lease the clone is under at that moment.
    let holding: Holding | null = null;
    let proxy: EgressProxy | null = null;
    try {
      const created = await driver.create(index, spec);
      if (warm) await driver.setCpuPriority?.(name, 'background');
      proxy = await startEgressProxy({
        host: created.network?.hostAddress ?? '127.0.0.1',
        port: created.network ? this.#options.proxyPort : 0,
        allowedDomains: spec.allowedDomains,
        addressPolicy: this.#addressPolicy,
        ...(this.#options.resolver ? { resolver: this.#options.resolver } : {}),
        onRefused: (attempt) => {
          const { leaseId, generation, taskId } = holding?.lease ?? initial;
          this.refusals.add({ ...attempt, name, leaseId, generation, taskId });
        },
      });
      const info = await driver.start(name, {
        egressProxyUrl: proxy.url,
        timeoutMs: this.#options.startTimeoutMs,
      });
      const prime = this.#options.primeWarmClone;
      if (warm && prime && info.service) {
        await prime(info.service, AbortSignal.timeout(this.#options.startTimeoutMs));
      }
      holding = {
        info,
        proxy,
        lease: initial,
        allowedDomains: [...spec.allowedDomains],
        limits: spec.limits,
        display: spec.display,
        fromPool: false,
        createdAt: new Date(),
        readyMs: 0,
      };
      return holding;
    } catch (error) {
      await proxy?.close();
      this.leases.end(initial);
      await driver.destroy(name).catch(() => {});
      this.leases.release(index);
      throw error;
    }
  }

  /** Closes the proxy (no refusal after it), ends the lease, destroys the clone, frees its index. */
  async #teardown(holding: Holding): Promise<{ name: string; leftovers: readonly string[] }> {
    await holding.proxy.close();
    this.leases.end(holding.lease);
    const result = await this.#options.driver.destroy(holding.info.name);
    this.leases.release(holding.info.index);
    return result;
  }
}

export type { CloneManagerOptions } from './clone-manager-options.js';
