// The caller's bound on leased clones (POST /clones `maxLeases`): the host is the one place that
// sees every lease, whichever controlplane holds it, so this is where a fleet's registered
// capacity is enforced. A create counts from the moment it is admitted (synchronously, before
// its first await) until its clone is held or it fails: two creates at once can never both take
// the last slot.
import { HostdError } from '../errors.js';

export class LeaseCap {
  /** Creates admitted and not yet held (or failed). */
  #admitted = 0;
  readonly #held: () => number;

  /** `held`: the leased clones the host holds now. */
  constructor(held: () => number) {
    this.#held = held;
  }

  /**
   * Runs `create` unless the held clones plus the creates under way already reach `maxLeases`
   * (no bound when undefined): then throws HOST_FULL (503) before anything is made.
   */
  async admit<T>(maxLeases: number | undefined, create: () => Promise<T>): Promise<T> {
    if (maxLeases !== undefined) {
      const leased = this.#held() + this.#admitted;
      if (leased >= maxLeases) {
        throw new HostdError(
          'HOST_FULL',
          `the host holds ${leased} leased clones, the caller's maximum is ${maxLeases}`,
          503,
        );
      }
    }
    this.#admitted += 1;
    try {
      return await create();
    } finally {
      this.#admitted -= 1;
    }
  }
}
