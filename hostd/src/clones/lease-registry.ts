// Leases: which caller may act on which clone. Every clone is under exactly one live lease at a
// time (a warm-up lease while it waits in the pool, then its task's lease), each with a random,
// unguessable id and a generation that only increases. An ended lease is kept (with its egress
// refusals) for a retention period, and its clone's index is not reused while it is: a stale
// request naming it is answered about that old lease, never applied to a newer clone.
import { randomBytes } from 'node:crypto';
import { HostdError } from '../errors.js';

export interface LeaseRecord {
  readonly leaseId: string;
  readonly generation: number;
  readonly name: string;
  readonly index: number;
  readonly taskId: string;
  /**
   * Who took the lease (a controlplane's instance id), as it named itself; null: unnamed (a warm-up
   * lease, or a caller that names no holder). `POST /leases/revoke` picks leases by it.
   */
  readonly holder: string | null;
  /** When the lease ended (ms, the registry's clock); null while it is live. */
  readonly endedAt: number | null;
  /** Resolves when the lease ends: its clone can no longer make refusals under it. */
  readonly ended: Promise<void>;
}

interface MutableLease extends LeaseRecord {
  endedAt: number | null;
  resolveEnded: () => void;
}

export interface LeaseRegistryOptions {
  /** Lowest and highest clone index to hand out (the driver's index space). */
  minIndex: number;
  maxIndex: number;
  /** How long an ended lease and its records are kept (its index stays quarantined meanwhile). */
  retentionMs: number;
  now: () => number;
  /** Called when an ended lease is forgotten, to drop its records. Must not throw. */
  onForget: (lease: LeaseRecord) => void;
}

export class LeaseRegistry {
  readonly #options: LeaseRegistryOptions;
  readonly #byId = new Map<string, MutableLease>();
  /** Indexes whose clone is being made, pooled or leased. */
  readonly #inUse = new Set<number>();
  #generation = 0;
  #cursor: number;

  constructor(options: LeaseRegistryOptions) {
    this.#options = options;
    this.#cursor = options.maxIndex;
  }

  /** A new live lease on the clone `name`. */
  issue(name: string, index: number, taskId: string, holder: string | null = null): LeaseRecord {
    this.#generation += 1;
    let resolveEnded = () => {};
    const ended = new Promise<void>((resolve) => {
      resolveEnded = resolve;
    });
    const lease: MutableLease = {
      leaseId: randomBytes(24).toString('base64url'),
      generation: this.#generation,
      name,
      index,
      taskId,
      holder,
      endedAt: null,
      ended,
      resolveEnded,
    };
    this.#byId.set(lease.leaseId, lease);
    return lease;
  }

  /** Ends a live lease (idempotent); it is kept, with its records, for the retention period. */
  end(lease: LeaseRecord): void {
    const record = this.#byId.get(lease.leaseId);
    if (!record || record.endedAt !== null) return;
    record.endedAt = this.#options.now();
    record.resolveEnded();
  }

  /**
   * The lease `leaseId` names, if it is a lease on `name` (live or ended). Throws LEASE_REQUIRED
   * (400), LEASE_NOT_FOUND (404) or LEASE_MISMATCH (409, a lease on another clone).
   */
  check(name: string, leaseId: string | undefined): LeaseRecord {
    if (!leaseId) {
      throw new HostdError('LEASE_REQUIRED', `send the lease id of ${name} in a lease header`, 400);
    }
    this.sweep();
    const lease = this.#byId.get(leaseId);
    if (!lease) throw new HostdError('LEASE_NOT_FOUND', `no such lease on ${name}`, 404);
    if (lease.name !== name) {
      throw new HostdError('LEASE_MISMATCH', `that lease is not a lease on ${name}`, 409);
    }
    return lease;
  }

  /**
   * Reserves a clone index: round-robin from the last one handed out, skipping indexes in use, on
   * the OS (`observed`), or quarantined by an ended lease still kept. When every index is taken
   * that way, the oldest ended leases are forgotten first (their records dropped), never reused
   * under them. Throws CAPACITY_EXHAUSTED when no index can be had.
   */
  allocate(observed: ReadonlySet<number>): number {
    this.sweep();
    const { minIndex, maxIndex } = this.#options;
    const span = maxIndex - minIndex + 1;
    for (;;) {
      const quarantined = this.#quarantined();
      for (let step = 1; step <= span; step += 1) {
        const index = minIndex + ((this.#cursor - minIndex + step) % span);
        if (this.#inUse.has(index) || observed.has(index) || quarantined.has(index)) continue;
        this.#cursor = index;
        this.#inUse.add(index);
        return index;
      }
      if (!this.#forgetOldest(observed)) break;
    }
    throw new HostdError(
      'CAPACITY_EXHAUSTED',
      `no free clone index (${minIndex}…${maxIndex})`,
      503,
    );
  }

  /** The index's clone is gone from the OS: it may be reused once its ended leases are forgotten. */
  release(index: number): void {
    this.#inUse.delete(index);
  }

  /** Forgets ended leases past their retention. */
  sweep(): void {
    const cutoff = this.#options.now() - this.#options.retentionMs;
    for (const lease of [...this.#byId.values()]) {
      if (lease.endedAt !== null && lease.endedAt <= cutoff) this.#forget(lease);
    }
  }

  /** Indexes with an ended lease still kept. */
  #quarantined(): Set<number> {
    const indexes = new Set<number>();
    for (const lease of this.#byId.values()) if (lease.endedAt !== null) indexes.add(lease.index);
    return indexes;
  }

  /** Forgets every ended lease of the index whose newest ended lease is oldest; false if none. */
  #forgetOldest(observed: ReadonlySet<number>): boolean {
    const newest = new Map<number, number>();
    for (const lease of this.#byId.values()) {
      if (lease.endedAt === null || this.#inUse.has(lease.index) || observed.has(lease.index))
        continue;
      newest.set(lease.index, Math.max(newest.get(lease.index) ?? 0, lease.endedAt));
    }
    const oldest = [...newest].sort((a, b) => a[1] - b[1])[0];
    if (!oldest) return false;
    for (const lease of [...this.#byId.values()]) {
      if (lease.index === oldest[0] && lease.endedAt !== null) this.#forget(lease);
    }
    return true;
  }

  #forget(lease: MutableLease): void {
    this.#byId.delete(lease.leaseId);
    this.#options.onForget(lease);
  }
}
