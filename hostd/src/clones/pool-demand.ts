// How many warm clones to keep, from demand (issue 24, 4): at least the configured floor, more
// while tasks arrive — one per clone asked for in the last window, plus the asks waiting for a
// clone being made right now (the queue) — never more than the ceiling (the controlplane's
// concurrency for an embedded hostd). A quiet window brings the target back to the floor.

export interface PoolDemandOptions {
  /** Ready clones always kept (CLAWDIE_HOSTD_POOL_SIZE). */
  floor: number;
  /** Ready clones kept at most however busy (CLAWDIE_HOSTD_POOL_MAX; at least the floor). */
  ceiling: number;
  /** How far back arrivals count (CLAWDIE_HOSTD_POOL_WINDOW_MS). */
  windowMs: number;
  now: () => number;
}

export class PoolDemand {
  readonly #options: PoolDemandOptions;
  /** When each clone was asked for, oldest first, within the window. */
  #arrivals: number[] = [];
  #waiting = 0;

  constructor(options: PoolDemandOptions) {
    this.#options = { ...options, ceiling: Math.max(options.floor, options.ceiling) };
  }

  /** A clone was asked for; `waits`: none was ready, it is being made for this ask. */
  arrived(): void {
    this.#arrivals.push(this.#options.now());
    this.#forget();
  }

  /** An ask without a ready clone starts (true) or ends (false) waiting. */
  waiting(started: boolean): void {
    this.#waiting = Math.max(0, this.#waiting + (started ? 1 : -1));
  }

  /** The ready clones to keep now. */
  target(): number {
    this.#forget();
    const { floor, ceiling } = this.#options;
    return Math.min(ceiling, Math.max(floor, this.#arrivals.length + this.#waiting));
  }

  #forget(): void {
    const since = this.#options.now() - this.#options.windowMs;
    while ((this.#arrivals[0] ?? Number.POSITIVE_INFINITY) < since) this.#arrivals.shift();
  }
}
