// In-memory record of refused egress attempts, each tagged with the lease it happened under and
// numbered (`seq`) so a lease's reader can resume after the last one it saw without missing or
// repeating any. Bounded (oldest dropped); a lease's records are purged when the lease is forgotten.
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

  /** The refusals made under one lease, after `after` (a seq), oldest first. */
  list(filter: { leaseId: string; after?: number }): EgressRefusal[] {
    const after = filter.after ?? 0;
    return this.#entries.filter((entry) => entry.leaseId === filter.leaseId && entry.seq > after);
  }

  /** Drops every record of the lease (the lease is forgotten; its clone's index may be reused). */
  purge(leaseId: string): void {
    for (let i = this.#entries.length - 1; i >= 0; i -= 1) {
      if (this.#entries[i]?.leaseId === leaseId) this.#entries.splice(i, 1);
    }
  }

  /** Subscribes to new refusals (e.g. a lease's stream); returns the unsubscribe. */
  subscribe(listener: (refusal: EgressRefusal) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
