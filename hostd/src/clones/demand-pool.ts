// The warm pool as the clone manager uses it: ready clones (warm-pool.ts) whose target follows
// demand (pool-demand.ts, re-read every quarter window), and whose refill after a hand-out waits
// for the clone handed out to go quiet (refill-gate.ts).
import { sleep } from '@clawdie/kit/timing';
import type { CloneManagerOptions } from './clone-manager-options.js';
import { PoolDemand } from './pool-demand.js';
import { RefillGate } from './refill-gate.js';
import { WarmPool, type WarmPoolStatus } from './warm-pool.js';

export interface DemandPoolOptions<T> {
  settings: CloneManagerOptions;
  make: () => Promise<T>;
  /** Gets rid of an item made after close. Must not throw. */
  discard: (item: T) => Promise<void>;
  /** The clone name of an item, for the refill gate. */
  nameOf: (item: T) => string;
}

export class DemandPool<T> {
  readonly #floor: number;
  readonly #pool: WarmPool<T>;
  readonly #refill: RefillGate;
  readonly #demand: PoolDemand;
  readonly #nameOf: (item: T) => string;
  /** Brings the pool's target back down once arrivals stop. */
  readonly #rebalance: NodeJS.Timeout;
  #closed = false;

  constructor(options: DemandPoolOptions<T>) {
    const { settings } = options;
    this.#floor = settings.poolSize;
    this.#nameOf = options.nameOf;
    this.#refill = new RefillGate({
      cpuTimeMs: settings.driver.cpuTimeMs?.bind(settings.driver),
      ...settings.refill,
    });
    this.#pool = new WarmPool({
      target: settings.poolSize,
      make: options.make,
      beforeMake: (closed) => this.#refill.quiet(() => this.#closed || closed()),
      discard: options.discard,
      retryMinMs: settings.poolRetry?.minMs ?? 1000,
      retryMaxMs: settings.poolRetry?.maxMs ?? 60_000,
      ...(settings.now ? { now: settings.now } : {}),
      ...(settings.onError ? { onError: settings.onError } : {}),
    });
    const windowMs = settings.poolWindowMs ?? 60_000;
    this.#demand = new PoolDemand({
      floor: settings.poolSize,
      ceiling: settings.poolMax ?? settings.poolSize,
      windowMs,
      now: settings.now ?? Date.now,
    });
    this.#rebalance = setInterval(() => this.#retarget(), Math.max(1000, windowMs / 4));
    this.#rebalance.unref();
  }

  /**
   * A clone was asked for: the oldest ready item when `fits`, else null — the ask then counts as
   * waiting until `waited()`. Either way demand moves the target and the pool refills.
   */
  take(fits: boolean): T | null {
    this.#demand.arrived();
    const item = this.#pool.take(fits);
    if (item) this.#refill.handedOut(this.#nameOf(item));
    else this.#demand.waiting(true);
    this.#retarget();
    return item;
  }

  /** The ask `take` found no ready item for has its clone (or failed). */
  waited(): void {
    this.#demand.waiting(false);
  }

  status(): WarmPoolStatus {
    return this.#pool.status();
  }

  /** Starts background creation up to the target. Never throws. */
  fill(): void {
    this.#pool.fill();
  }

  /** Resolves once the pool holds its floor (or `timeoutMs` passed); for start-up and tests. */
  async ready(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.#pool.size < this.#floor && Date.now() < deadline) await sleep(20);
    return this.#pool.size >= this.#floor;
  }

  /** Stops refilling, waits for attempts under way, and hands back the ready items. */
  close(): Promise<T[]> {
    this.#closed = true;
    clearInterval(this.#rebalance);
    return this.#pool.close();
  }

  /** The pool's target from demand now (never while closing). */
  #retarget(): void {
    if (!this.#closed) this.#pool.retarget(this.#demand.target());
  }
}
