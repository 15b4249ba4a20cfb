import type { Clock } from '../../clock.js';
import type { AuditHeadWriter } from './audit-head.js';
import { boundAuditEvent } from './bounded-fields.js';
import { canonicalJson } from './canonical-json.js';
import {
  type AuditRow,
  type ChainHead,
  type ChainKey,
  expectedHash,
  GENESIS_HASH,
} from './hash-chain.js';
import { type AuditVerifyResult, verifyChain } from './verify-chain.js';

/** What gets recorded, one list (the dashboard's filter offers the same). Names follow `<noun>-<verb>`. */
export const auditEventTypes = [
  'task-started',
  'task-ended',
  'task-stuck',
  /** An abort, pause or resume sent to the replica that runs the task (tasks/replica-commands.ts). */
  'task-command-forwarded',
  'takeover-started',
  'takeover-ended',
  'takeover-input',
  'takeover-refused',
  'takeover-link-issued',
  'action-executed',
  /** A reply, or one of its actions, refused; `data.kind` says why (agent/gate-types RefusalKind). */
  'step-refused',
  /** Before issue 20 every refused step was written so, whatever refused it (old rows only). */
  'navigation-refused',
  'policy-decided',
  'auth-failed',
  'token-created',
  'approval-requested',
  'approval-answered',
  'approval-answer-refused',
  'approval-expired',
  'credential-refused',
  'credential-typed',
  'secret-stored',
  'session-saved',
  'session-revoked',
  'session-expired',
  'session-injected',
  'notifier-failed',
  'clone-created',
  'clone-destroyed',
  'egress-refused',
  'audit-keyed',
  'browser-kept',
  'browser-not-kept',
  'browser-resumed',
  'kept-browser-ended',
  /** A finished download copied out of the clone and stored beside the trace (issue 23). */
  'artifact-stored',
  /** A download the policy refused (off, too large, type), or one that could not be copied out. */
  'download-refused',
  /** A file the task provided, set on a file chooser the page opened (issue 23). */
  'file-uploaded',
  /** A file chooser the page opened with no file provided: cancelled. */
  'upload-cancelled',
  /**
   * A held chooser's file not set: refused by a supervisor (or no answer, no approver), or its
   * input gone by the time it was approved.
   */
  'upload-refused',
  /** A jail host registered (`clawdie hosts add`), drained, resumed, or removed (token revoked). */
  'host-added',
  'host-drained',
  'host-resumed',
  'host-removed',
] as const;
export type AuditEventType = (typeof auditEventTypes)[number];

export interface AuditEvent {
  type: AuditEventType;
  /** Who caused it: `system`, `tenant:<id>/<sub>`, `telegram:<user id>`, `anonymous`, … */
  actor: string;
  taskId?: string | null;
  /** Plain JSON; never a secret value. */
  data?: Record<string, unknown>;
}

export interface AuditRecord extends Omit<AuditRow, 'data'> {
  data: Record<string, unknown>;
}

/** A page of audit rows: filters combine with AND; `at` bounds are epoch ms, inclusive. */
export interface AuditListQuery {
  limit: number;
  /** Rows with a seq above this one (oldest-first paging). */
  afterSeq?: number;
  /** Rows with a seq below this one (newest-first paging). */
  beforeSeq?: number;
  taskId?: string;
  /** Rows caused by the tenant's principals or about one of its tasks. */
  tenant?: string;
  type?: string;
  since?: number;
  until?: number;
  /** Newest first (seq descending); default oldest first. */
  newestFirst?: boolean;
}

/** The audit port: append-only. */
export interface AuditLog {
  /**
   * Appends one event to the hash chain and resolves to the stored row, its fields bounded
   * (`bounded-fields.ts`: over-long text becomes prefix + length + SHA-256), once the row is
   * committed. Rejects only on storage failure. A caller whose answer depends on the row being
   * recorded (a security decision) awaits it; one that cannot wait catches and logs.
   */
  append(event: AuditEvent): Promise<AuditRecord>;
}

/** The seq and hash of the chain's last row. */
export interface AuditTail {
  seq: number;
  hash: string;
}

/**
 * Storage the chain runs on (`store/audit-repository.ts`). Every method is asynchronous, so an
 * adapter over a networked database (several controlplanes on one PostgreSQL) can implement it.
 */
export interface AuditStore {
  /**
   * Reads the tail and inserts `build(tail)` inside ONE database transaction that excludes every
   * other appender until it commits (SQLite: an IMMEDIATE transaction; PostgreSQL: a row or
   * advisory lock taken first in the same transaction), so concurrent appenders, in this process
   * or in others, cannot fork the chain. `build` is a synchronous pure function of the tail.
   * Resolves to the inserted row after the commit.
   */
  append(build: (tail: AuditTail | null) => AuditRow): Promise<AuditRow>;
  /**
   * Up to `limit` rows with a seq above `afterSeq`, in seq order: one keyset page
   * (`WHERE seq > ? ORDER BY seq LIMIT ?`). Verification walks the chain page by page.
   */
  page(afterSeq: number, limit: number): Promise<AuditRow[]>;
  /** The last row's seq and hash, or null when empty. */
  tail(): Promise<AuditTail | null>;
  /** The hash of the row at `seq`, or null. */
  hashAt(seq: number): Promise<string | null>;
  /** The seq of the row whose hash is `hash`, or null. */
  seqOfHash(hash: string): Promise<number | null>;
  list(query: AuditListQuery): Promise<AuditRow[]>;
}

/** A full audit log: the port plus verification and reading. */
export interface AuditTrail extends AuditLog {
  verify(): Promise<AuditVerifyResult>;
  list(query: AuditListQuery): Promise<AuditRecord[]>;
}

/** The chain key and the head record kept with it (`open-audit-trail.ts` builds this). */
export interface AuditKeying {
  chainKey: ChainKey;
  /** Absent for a read-only trail (`clawdie audit verify`). */
  head?: AuditHeadWriter;
  /** Reads the head record as stored (null = missing). */
  readHead(): ChainHead | null;
}

/**
 * Builds the hash-chained audit log over a store. With `keying`, rows from `keyedFrom` on are
 * MACed with the key and each append updates the head record; without, rows are only hashed
 * (tests, and the demo's throwaway stores).
 */
export function createAuditLog(
  store: AuditStore,
  clock: Pick<Clock, 'now'>,
  keying: AuditKeying | null = null,
): AuditTrail {
  const chainKey = keying?.chainKey ?? null;
  return {
    async append(event) {
      // Every field bounded here, whatever the caller passed (docs/security.md, audit flood).
      const { actor, taskId, data } = boundAuditEvent(event, canonicalJson);
      const row = await store.append((tail) => {
        const partial = {
          seq: (tail?.seq ?? 0) + 1,
          at: clock.now(),
          type: event.type,
          actor,
          taskId,
          data,
          prevHash: tail?.hash ?? GENESIS_HASH,
        };
        return { ...partial, hash: expectedHash(partial, chainKey) };
      });
      // After the commit, so the head never names an uncommitted row. Appends in flight may
      // resolve out of chain order; the writer keeps the highest seq (audit-head.ts).
      keying?.head?.write({ seq: row.seq, hash: row.hash });
      return decode(row);
    },
    async verify() {
      // The head first: rows appended meanwhile are then in the pages the walk reads.
      keying?.head?.flush();
      const head = keying ? keying.readHead() : null;
      return verifyChain(auditRows(store), {
        locateHash: (hash) => store.seqOfHash(hash),
        chainKey,
        head,
      });
    },
    list: async (query) => (await store.list(query)).map(decode),
  };
}

/** Rows verification reads per page (bounded memory, few round trips). */
const PAGE_ROWS = 1000;

/** Every row in seq order, read in keyset pages. */
async function* auditRows(store: AuditStore): AsyncGenerator<AuditRow> {
  let after = 0;
  for (;;) {
    const page = await store.page(after, PAGE_ROWS);
    yield* page;
    const last = page.at(-1);
    if (page.length < PAGE_ROWS || !last) return;
    after = last.seq;
  }
}

function decode(row: AuditRow): AuditRecord {
  return { ...row, data: JSON.parse(row.data) as Record<string, unknown> };
}

/** An audit log that drops everything: for code paths (tests, CLI one-offs) without a store. */
export const discardAuditLog: AuditLog = {
  append: async (event) => ({
    seq: 0,
    at: 0,
    type: event.type,
    actor: event.actor,
    taskId: event.taskId ?? null,
    data: event.data ?? {},
    prevHash: GENESIS_HASH,
    hash: GENESIS_HASH,
  }),
};
