// In-memory audit trail of refused egress attempts, numbered so the controlplane can poll
// `GET /egress-refusals?after=<seq>` without missing or repeating any. Bounded; oldest dropped.
import type { EgressRefusal } from '../api/schema.js';

export class RefusalLog {
  readonly #entries: EgressRefusal[] = [];
  readonly #capacity: number;
  readonly #listeners = new Set<(refusal: EgressRefusal) => void>();
  #seq = 0;

  constructor(capacity = 10_000) {
    this.#capacity = capacity;
  }

  add(entry: Omit<EgressRefusal, 'seq' | 'at'>, at: Date = new Date()): EgressRefusal {
    this.#seq += 1;
    const refusal = { ...entry, seq: this.#seq, at: at.toISOString() };
    this.#entries.push(refusal);
    if (this.#entries.length > this.#capacity) this.#entries.shift();
    for (const listener of this.#listeners) {
      try {
        listener(refusal);
      } catch {
        // Listeners must not throw; one that does must not break the proxy.
      }
    }
    return refusal;
  }

  list(filter: { name?: string; after?: number } = {}): EgressRefusal[] {
    return this.#entries.filter(
      (entry) =>
        (filter.name === undefined || entry.name === filter.name) &&
        (filter.after === undefined || entry.seq > filter.after),
    );
  }

  /** Subscribes to new refusals (e.g. a push to the controlplane); returns the unsubscribe. */
  subscribe(listener: (refusal: EgressRefusal) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
