// The warm pool: ready-made clones waiting for a task. Refills in the background whenever a clone
// is taken, and after a failed attempt retries with exponential backoff (bounded), so one bad
// moment (a slow host, a start timeout) does not leave it empty for good. Its target can move
// (`retarget`, from demand: pool-demand.ts): above it, the oldest ready items are discarded.
// Reports its state.

export interface WarmPoolOptions<T> {
  /** Ready items to keep (0 = no pool). */
  target: number;
  make: () => Promise<T>;
  /**
   * Awaited before each item is made (e.g. until the clone just taken goes quiet: refill-gate.ts);
   * gets whether the pool has closed meanwhile, to return early. Must not reject.
   */
  beforeMake?: (closed: () => boolean) => Promise<void>;
  /** Gets rid of an item made after close. Must not throw. */
  discard: (item: T) => Promise<void>;
  /** First retry delay after a failure; doubles per consecutive failure up to `retryMaxMs`. */
  retryMinMs: number;
  retryMaxMs: number;
  now?: () => number;
  /** Must not throw. */
  onError?: (message: string, error: unknown) => void;
}

export interface WarmPoolStatus {
  target: number;
  ready: number;
  filling: number;
  failures: number;
  lastError: string | null;
  lastErrorAt: string | null;
  retryAt: string | null;
}

export class WarmPool<T> {
  readonly #options: WarmPoolOptions<T>;
  #target: number;
  readonly #now: () => number;
  readonly #ready: T[] = [];
  /** Items being made, and discards under way: close waits for both. */
  readonly #inflight = new Set<Promise<void>>();
  #making = 0;
  #failures = 0;
  #lastError: { message: string; at: number } | null = null;
  #retry: { timer: NodeJS.Timeout; at: number } | null = null;
  #closed = false;

  constructor(options: WarmPoolOptions<T>) {
    this.#options = options;
    this.#target = options.target;
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#ready.length;
  }

  /** The oldest ready item when `fits` (e.g. same limits), then refills. */
  take(fits: boolean): T | null {
    const item = fits ? (this.#ready.shift() ?? null) : null;
    this.fill();
    return item;
  }

  get target(): number {
    return this.#target;
  }

  /** Moves the target: discards the oldest ready items above it, or starts making more. */
  retarget(target: number): void {
    this.#target = Math.max(0, target);
    if (this.#closed) return;
    for (const item of this.#ready.splice(0, Math.max(0, this.#ready.length - this.#target))) {
      const gone = this.#options.discard(item);
      this.#inflight.add(gone);
      void gone.finally(() => this.#inflight.delete(gone));
    }
    this.fill();
  }

  /** Starts making what is missing, unless a retry after a failure is pending. Never throws. */
  fill(): void {
    if (this.#closed || this.#retry) return;
    const missing = this.#target - this.#ready.length - this.#making;
    for (let i = 0; i < missing; i += 1) {
      const attempt: Promise<void> = this.#beforeMake().then(() => this.#makeOne());
      this.#making += 1;
      this.#inflight.add(attempt);
      void attempt.finally(() => {
        this.#making -= 1;
        this.#inflight.delete(attempt);
      });
    }
  }

  async #beforeMake(): Promise<void> {
    await this.#options.beforeMake?.(() => this.#closed).catch(() => undefined);
  }

  /** Makes one item and keeps it, or records the failure and schedules a retry. */
  #makeOne(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return this.#options.make().then(
      async (item) => {
        this.#failures = 0;
        // Made after close, or after the target fell below what is ready: not kept.
        if (this.#closed || this.#ready.length >= this.#target) await this.#options.discard(item);
        else this.#ready.push(item);
      },
      (error: unknown) => {
        this.#failures += 1;
        this.#lastError = { message: errorMessage(error), at: this.#now() };
        this.#options.onError?.('warm clone failed', error);
        this.#scheduleRetry();
      },
    );
  }

  status(): WarmPoolStatus {
    return {
      target: this.#target,
      ready: this.#ready.length,
      filling: this.#making,
      failures: this.#failures,
      lastError: this.#lastError?.message ?? null,
      lastErrorAt: this.#lastError ? new Date(this.#lastError.at).toISOString() : null,
      retryAt: this.#retry ? new Date(this.#retry.at).toISOString() : null,
    };
  }

  /** Stops refilling, waits for attempts under way, and hands back the ready items. */
  async close(): Promise<T[]> {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry.timer);
    this.#retry = null;
    await Promise.allSettled([...this.#inflight]);
    return this.#ready.splice(0);
  }

  #scheduleRetry(): void {
    if (this.#closed || this.#retry) return;
    const { retryMinMs, retryMaxMs } = this.#options;
    const delay = Math.min(retryMaxMs, retryMinMs * 2 ** Math.min(this.#failures - 1, 30));
    const timer = setTimeout(() => {
      this.#retry = null;
      this.fill();
    }, delay);
    timer.unref();
    this.#retry = { timer, at: this.#now() + delay };
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
