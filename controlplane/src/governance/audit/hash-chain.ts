import { createHash, createHmac, type KeyObject } from 'node:crypto';

/** `prev_hash` of the first row. */
export const GENESIS_HASH = '0'.repeat(64);

/** The stored columns of one audit row (`data` is the canonical JSON text). */
export interface AuditRow {
  seq: number;
  at: number;
  type: string;
  actor: string;
  taskId: string | null;
  data: string;
  prevHash: string;
  hash: string;
}

/**
 * The key that MACs the chain from row `keyedFrom` on (rows before it were written before the
 * key existed: hash-chained only, and anchored by the first keyed row, whose MAC covers their
 * last hash). The key lives in a file outside the database (`audit-key.ts`).
 */
export interface ChainKey {
  key: KeyObject;
  keyedFrom: number;
}

/** The last row an appender wrote, kept with the key (`audit-head.ts`), to detect a cut tail. */
export interface ChainHead {
  seq: number;
  hash: string;
}

function rowBody(row: Omit<AuditRow, 'hash'>): string {
  return JSON.stringify([row.seq, row.at, row.type, row.actor, row.taskId, row.data]);
}

/**
 * sha256 over the canonical encoding of a row: its predecessor's hash, a newline, then the JSON
 * array `[seq, at, type, actor, task_id, data]` (data being canonical JSON text itself). Covering
 * `seq` means a row moved to another position no longer verifies.
 */
export function rowHash(row: Omit<AuditRow, 'hash'>): string {
  return createHash('sha256').update(row.prevHash).update('\n').update(rowBody(row)).digest('hex');
}

/** HMAC-SHA256 with the chain key over the same bytes as `rowHash`: only the key holder can make one. */
export function rowMac(row: Omit<AuditRow, 'hash'>, key: KeyObject): string {
  return createHmac('sha256', key)
    .update(row.prevHash)
    .update('\n')
    .update(rowBody(row))
    .digest('hex');
}

/** The `hash` column a row must carry: a MAC from `keyedFrom` on, else the plain hash. */
export function expectedHash(row: Omit<AuditRow, 'hash'>, chainKey: ChainKey | null): string {
  return chainKey && row.seq >= chainKey.keyedFrom ? rowMac(row, chainKey.key) : rowHash(row);
}
