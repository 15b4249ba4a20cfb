// When the warm pool refills after a hand-out: once the clone just handed out goes quiet. Making
// a clone (a Chromium starting, its network and sandbox) takes the host's CPU for ≈ 0.5 s; begun
// at the hand-out, it slowed the new task's first navigation and its release by a third on two
// cores, even at a tenth of the CPU weight (docs/performance.md, "Fast clones"). A task's browser
// goes quiet while the model thinks — that is when the refill runs — or at the latest after
// `maxWaitMs`, or at once when its clone is gone or its CPU time cannot be read.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sleep as realSleep } from '@clawdie/kit/timing';

export interface RefillGateOptions {
  /** CPU time the clone's processes have used so far (ms); null when gone or not known. */
  cpuTimeMs?: ((name: string) => Promise<number | null>) | undefined;
  /** The longest a refill waits after a hand-out (0: it never waits). Default 3000. */
  maxWaitMs?: number;
  /** One CPU sample's length. Default 100 ms. */
  sampleMs?: number;
  /** Quiet samples in a row that end the wait. Default 2. */
  quietSamples?: number;
  /** Below this share of one core during a sample the clone is quiet. Default 0.1. */
  busyShare?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export class RefillGate {
  readonly #options: RefillGateOptions;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  #last: { name: string; at: number } | null = null;

  constructor(options: RefillGateOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? realSleep;
  }

  /** A clone left the pool for a task; record it in the same turn as the take. */
  handedOut(name: string): void {
    this.#last = { name, at: this.#now() };
  }

  /**
   * Resolves when a refill may start: the clone handed out last is quiet, gone or unreadable, or
   * `maxWaitMs` has passed since its hand-out, or `stop()` returns true. Never rejects.
   */
  async quiet(stop: () => boolean = () => false): Promise<void> {
    const cpuTimeMs = this.#options.cpuTimeMs;
    const maxWaitMs = this.#options.maxWaitMs ?? 3000;
    const sampleMs = this.#options.sampleMs ?? 100;
    const needed = this.#options.quietSamples ?? 2;
    const busyMs = (this.#options.busyShare ?? 0.1) * sampleMs;
    if (!cpuTimeMs || maxWaitMs <= 0) return;
    await nextTurn();
    let quiet = 0;
    let watched: string | null = null;
    for (;;) {
      const last = this.#last;
      if (!last || stop() || this.#now() - last.at >= maxWaitMs) return;
      if (last.name !== watched) [watched, quiet] = [last.name, 0];
      const before = await cpuTimeMs(last.name).catch(() => null);
      if (before === null) return;
      await this.#sleep(sampleMs);
      const after = await cpuTimeMs(last.name).catch(() => null);
      if (after === null) return;
      quiet = after - before < busyMs ? quiet + 1 : 0;
      if (quiet >= needed) return;
    }
  }
}
