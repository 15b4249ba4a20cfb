import { createHash } from 'node:crypto';

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
 * sha256 over the canonical encoding of a row: its predecessor's hash, a newline, then the JSON
 * array `[seq, at, type, actor, task_id, data]` (data being canonical JSON text itself). Covering
 * `seq` means a row moved to another position no longer verifies.
 */
export function rowHash(row: Omit<AuditRow, 'hash'>): string {
  const body = JSON.stringify([row.seq, row.at, row.type, row.actor, row.taskId, row.data]);
  return createHash('sha256').update(row.prevHash).update('\n').update(body).digest('hex');
}

export type AuditProblem = 'edited' | 'deleted' | 'reordered' | 'chain-broken';

export type AuditVerifyResult =
  | { ok: true; rows: number; headSeq: number; headHash: string }
  | {
      ok: false;
      rows: number;
      firstBad: { seq: number; problem: AuditProblem; message: string };
    };

/**
 * Walks rows in `seq` order and names the first one that breaks the chain:
 * - `deleted`: a gap in `seq`;
 * - `reordered`: a row whose `prev_hash` is the hash of a row stored at another position;
 * - `edited`: a row whose content no longer matches its own hash;
 * - `chain-broken`: an intact row whose predecessor hash exists nowhere (the predecessor was
 *   rewritten with a recomputed hash, or rows were deleted and the rest renumbered).
 * `locateHash` (only called on a broken link) returns the seq of the row holding a hash.
 * Deleting rows at the end is not detectable from the rows alone: compare `headSeq`/`headHash`
 * with a copy kept elsewhere (docs/security.md).
 */
export function verifyChain(
  rows: Iterable<AuditRow>,
  locateHash: (hash: string) => number | null = () => null,
): AuditVerifyResult {
  let count = 0;
  let previous = { seq: 0, hash: GENESIS_HASH };
  const bad = (seq: number, problem: AuditProblem, message: string): AuditVerifyResult => ({
    ok: false,
    rows: count,
    firstBad: { seq, problem, message },
  });
  for (const row of rows) {
    count += 1;
    const expectedSeq = previous.seq + 1;
    const contentOk = rowHash(row) === row.hash;
    if (row.seq !== expectedSeq) {
      return bad(expectedSeq, 'deleted', `row ${expectedSeq} is missing (next row is ${row.seq})`);
    }
    if (row.prevHash !== previous.hash) {
      const holder = locateHash(row.prevHash);
      if (holder !== null && holder !== previous.seq) {
        return bad(
          row.seq,
          'reordered',
          `row ${row.seq} follows row ${holder}, not ${previous.seq}`,
        );
      }
      if (!contentOk) return bad(row.seq, 'edited', `row ${row.seq} does not match its hash`);
      return bad(
        row.seq,
        'chain-broken',
        `row ${row.seq} does not link to row ${previous.seq}: row ${previous.seq} was rewritten, or rows before ${row.seq} were deleted and the rest renumbered`,
      );
    }
    if (!contentOk) return bad(row.seq, 'edited', `row ${row.seq} does not match its hash`);
    previous = { seq: row.seq, hash: row.hash };
  }
  return { ok: true, rows: count, headSeq: previous.seq, headHash: previous.hash };
}
