// The clone lifecycle behind hostd's API: allocate an index, make the clone through the JailDriver,
// put its egress proxy in front, start it, hand it out (from the warm pool when one fits), destroy
// it whatever happens. Leases (task ↔ clone) live here; the OS state is always asked of the driver.
import type { Clone, CreateCloneRequest } from '../api/schema.js';
import {
  type CloneInfo,
  type CloneLimits,
  type CloneService,
  type CloneSpec,
  cloneName,
  type JailDriver,
  MAX_CLONE_INDEX,
  MIN_CLONE_INDEX,
} from '../drivers/jail-driver.js';
import { HostdError } from '../errors.js';
import { type AddressPolicy, createAddressPolicy } from '../proxy/address-policy.js';
import { type EgressProxy, startEgressProxy } from '../proxy/egress-proxy.js';
import type { HostResolver } from '../proxy/host-resolver.js';
import { RefusalLog } from './refusal-log.js';

export interface CloneManagerOptions {
  driver: JailDriver;
  defaultLimits: CloneLimits;
  defaultDisplay: boolean;
  /** Port of each clone's proxy on its host address (0 = any, used without a clone link). */
  proxyPort: number;
  /** Ready clones kept in the warm pool (0 = none). */
  poolSize: number;
  startTimeoutMs: number;
  /**
   * Run on each warm clone once it is healthy, before it enters the pool — e.g.
   * `primeFirstScreenshot`, so the task's first screenshot is not the browser's first frame.
   * A rejection discards the clone.
   */
  primeWarmClone?: (service: CloneService, signal: AbortSignal) => Promise<void>;
  /** Must not throw. */
  onError?: (message: string, error: unknown) => void;
  /**
   * Addresses no clone reaches whatever its allowlist (default: every internal address, no
   * exception; hostd's main passes CLAWDIE_HOSTD_EGRESS_ALLOW_INTERNAL's exact host:port entries).
   */
  addressPolicy?: AddressPolicy;
  /** The proxies' DNS (default: the system resolver). */
  resolver?: HostResolver;
}

interface Lease {
  info: CloneInfo;
  proxy: EgressProxy;
  taskId: string;
  allowedDomains: string[];
  limits: CloneLimits;
  display: boolean;
  fromPool: boolean;
  createdAt: Date;
  readyMs: number;
}

const POOL_TASK = 'warm-pool';

export class CloneManager {
  readonly refusals = new RefusalLog();
  readonly #options: CloneManagerOptions;
  readonly #leases = new Map<string, Lease>();
  readonly #pool: Lease[] = [];
  readonly #reserved = new Set<number>();
  #filling = 0;
  #closed = false;
  readonly #inflight = new Set<Promise<unknown>>();

  readonly #addressPolicy: AddressPolicy;

  constructor(options: CloneManagerOptions) {
    this.#options = options;
    this.#addressPolicy = options.addressPolicy ?? createAddressPolicy();
  }

  /** Destroys every clone on the host: hostd keeps no journal, so none is a confirmed live task. */
  async reconcile() {
    return this.#options.driver.reconcile(() => false);
  }

  /** Hands out a ready clone for a task: from the pool when limits and display fit, else cold. */
  async create(request: CreateCloneRequest): Promise<Clone> {
    const started = performance.now();
    const defaults = this.#options.defaultLimits;
    const limits: CloneLimits = {
      memoryMb: request.limits?.memoryMb ?? defaults.memoryMb,
      pids: request.limits?.pids ?? defaults.pids,
      cpuPercent: request.limits?.cpuPercent ?? defaults.cpuPercent,
    };
    const display = request.display ?? this.#options.defaultDisplay;
    const allowedDomains = [...(request.allowedDomains ?? [])];
    const pooled = this.#takeFromPool(limits, display);
    if (pooled) {
      pooled.proxy.setAllowedDomains(allowedDomains);
      await this.#options.driver.setCpuPriority?.(pooled.info.name, 'normal').catch((error) => {
        this.#options.onError?.('cannot restore the CPU share of a warm clone', error);
      });
      const lease = { ...pooled, taskId: request.taskId, allowedDomains, fromPool: true };
      lease.readyMs = performance.now() - started;
      this.#leases.set(lease.info.name, lease);
      this.fillPool();
      return this.#toClone(lease);
    }
    const spec = { taskId: request.taskId, allowedDomains, limits, display };
    const lease = await this.#track(this.#make(spec));
    if (this.#closed) {
      await this.#discard(lease);
      throw new HostdError('CLONE_FAILED', 'hostd is shutting down', 503);
    }
    lease.readyMs = performance.now() - started;
    this.#leases.set(lease.info.name, lease);
    return this.#toClone(lease);
  }

  /** The leased clone with its observed state; null when unknown or gone from the OS. */
  async get(name: string): Promise<Clone | null> {
    const lease = this.#leases.get(name);
    if (!lease) return null;
    const info = await this.#options.driver.inspect(name);
    if (!info) return null;
    return this.#toClone({
      ...lease,
      info: { ...info, service: info.service ?? lease.info.service },
    });
  }

  async list(): Promise<Clone[]> {
    const observed = new Map((await this.#options.driver.list()).map((info) => [info.name, info]));
    const clones: Clone[] = [];
    for (const lease of this.#leases.values()) {
      const info = observed.get(lease.info.name);
      if (info) {
        clones.push(
          this.#toClone({
            ...lease,
            info: { ...info, service: info.service ?? lease.info.service },
          }),
        );
      }
    }
    return clones.sort((a, b) => a.index - b.index);
  }

  /** Idempotent: closes the proxy, destroys the clone, returns what is left on the OS. */
  async destroy(name: string): Promise<{ name: string; leftovers: readonly string[] }> {
    const lease = this.#leases.get(name);
    this.#leases.delete(name);
    await lease?.proxy.close();
    const result = await this.#options.driver.destroy(name);
    const index = lease?.info.index;
    if (index !== undefined) this.#reserved.delete(index);
    return result;
  }

  poolStatus(): { target: number; ready: number } {
    return { target: this.#options.poolSize, ready: this.#pool.length };
  }

  leaseCount(): number {
    return this.#leases.size;
  }

  /** Starts background creation until the pool holds `poolSize` ready clones. Never throws. */
  fillPool(): void {
    const missing = this.#options.poolSize - this.#pool.length - this.#filling;
    for (let i = 0; i < missing && !this.#closed; i += 1) {
      this.#filling += 1;
      const spec = {
        taskId: POOL_TASK,
        allowedDomains: [],
        limits: this.#options.defaultLimits,
        display: this.#options.defaultDisplay,
      };
      void this.#make(spec, true)
        .then(async (lease) => {
          if (this.#closed) await this.#discard(lease);
          else this.#pool.push(lease);
        })
        .catch((error: unknown) => this.#options.onError?.('warm clone failed', error))
        .finally(() => {
          this.#filling -= 1;
        });
    }
  }

  /** Resolves once the pool is full (or `timeoutMs` passed); for start-up and tests. */
  async poolReady(timeoutMs = 60_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.#pool.length < this.#options.poolSize && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.#pool.length >= this.#options.poolSize;
  }

  /** Destroys every clone this manager made (leased and pooled); stops refilling. */
  async close(): Promise<void> {
    this.#closed = true;
    while (this.#filling > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await Promise.allSettled([...this.#inflight]);
    const pooled = this.#pool.splice(0);
    await Promise.all(pooled.map((lease) => this.#discard(lease)));
    await Promise.all([...this.#leases.keys()].map((name) => this.destroy(name)));
  }

  #toClone(lease: Lease): Clone {
    return { ...toClone(lease), egressExceptions: [...this.#addressPolicy.exceptions] };
  }

  #track<T>(promise: Promise<T>): Promise<T> {
    this.#inflight.add(promise);
    void promise.then(
      () => this.#inflight.delete(promise),
      () => this.#inflight.delete(promise),
    );
    return promise;
  }

  #takeFromPool(limits: CloneLimits, display: boolean): Lease | null {
    const defaults = this.#options.defaultLimits;
    const sameLimits =
      limits.memoryMb === defaults.memoryMb &&
      limits.pids === defaults.pids &&
      limits.cpuPercent === defaults.cpuPercent;
    if (!sameLimits || display !== this.#options.defaultDisplay) return null;
    return this.#pool.shift() ?? null;
  }

  async #make(spec: CloneSpec, warm = false): Promise<Lease> {
    const { driver } = this.#options;
    const index = await this.#allocate();
    const name = cloneName(index);
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
          const taskId = this.#leases.get(name)?.taskId ?? spec.taskId;
          this.refusals.add({ ...attempt, name, taskId });
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
      return {
        info,
        proxy,
        taskId: spec.taskId,
        allowedDomains: [...spec.allowedDomains],
        limits: spec.limits,
        display: spec.display,
        fromPool: false,
        createdAt: new Date(),
        readyMs: 0,
      };
    } catch (error) {
      await proxy?.close();
      await driver.destroy(name).catch(() => {});
      this.#reserved.delete(index);
      throw error;
    }
  }

  async #discard(lease: Lease): Promise<void> {
    await lease.proxy.close();
    await this.#options.driver.destroy(lease.info.name).catch(() => {});
    this.#reserved.delete(lease.info.index);
  }

  /** Lowest index with no reservation and no resource on the OS (leftovers are skipped). */
  async #allocate(): Promise<number> {
    const observed = new Set((await this.#options.driver.list()).map((info) => info.index));
    for (let index = MIN_CLONE_INDEX; index <= MAX_CLONE_INDEX; index += 1) {
      if (this.#reserved.has(index) || observed.has(index)) continue;
      this.#reserved.add(index);
      return index;
    }
    throw new HostdError('CAPACITY_EXHAUSTED', 'no free clone index (1…999)', 503);
  }
}

/**
 * Takes one screenshot and drops it: Chromium's first frame on a fresh page (compositor start,
 * first raster, JPEG encoder warm-up) is several times slower than the next ones.
 */
export async function primeFirstScreenshot(
  service: CloneService,
  signal: AbortSignal,
): Promise<void> {
  const response = await fetch(`${service.url}/screenshot`, {
    headers: { authorization: `Bearer ${service.token}` },
    signal,
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`priming screenshot: HTTP ${response.status}`);
}

function toClone(lease: Lease): Clone {
  const { info } = lease;
  if (!info.service) throw new Error(`${info.name} has no service`);
  return {
    name: info.name,
    index: info.index,
    taskId: lease.taskId,
    state: info.state,
    service: { url: info.service.url, token: info.service.token },
    isolation: { level: info.isolation.level, reasons: [...info.isolation.reasons] },
    allowedDomains: lease.allowedDomains,
    limits: lease.limits,
    display: info.display,
    egressProxyUrl: lease.proxy.url,
    egressExceptions: [],
    fromPool: lease.fromPool,
    createdAt: lease.createdAt.toISOString(),
    readyMs: Math.round(lease.readyMs * 10) / 10,
  };
}
