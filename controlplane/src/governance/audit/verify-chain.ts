import {
  type AuditRow,
  type ChainHead,
  type ChainKey,
  expectedHash,
  GENESIS_HASH,
} from './hash-chain.js';

export type AuditProblem = 'edited' | 'deleted' | 'reordered' | 'chain-broken' | 'truncated';

export type AuditVerifyResult =
  | {
      ok: true;
      rows: number;
      headSeq: number;
      headHash: string;
      /** Keyed chains only: rows written before the key existed (hash-chained, not MACed). */
      unkeyedRows?: number;
    }
  | {
      ok: false;
      rows: number;
      firstBad: { seq: number; problem: AuditProblem; message: string };
    };

export interface VerifyChainOptions {
  /** The seq of the row holding a hash (only called on a broken link). */
  locateHash?: (hash: string) => Promise<number | null>;
  /** Rows from `keyedFrom` on must carry the key's MAC; null = an unkeyed chain (tests). */
  chainKey?: ChainKey | null;
  /** With a key: the head record kept with it (null = missing, which fails). */
  head?: ChainHead | null;
}

/**
 * Walks rows in `seq` order and names the first one that breaks the chain:
 * - `deleted`: a gap in `seq`;
 * - `reordered`: a row whose `prev_hash` is the hash of a row stored at another position;
 * - `edited`: a row whose content no longer matches its hash (keyed rows: its MAC, so a row
 *   rewritten, renumbered or appended by anyone without the key shows here);
 * - `chain-broken`: an intact row whose predecessor hash exists nowhere (an unkeyed predecessor
 *   was rewritten with a recomputed hash, or rows were deleted and the rest renumbered);
 * - `truncated`: with a key, rows the head record kept with the key names are missing at the end.
 * Without a key, deleting rows at the end is not detectable from the rows alone.
 */
export async function verifyChain(
  rows: AsyncIterable<AuditRow> | Iterable<AuditRow>,
  options: VerifyChainOptions = {},
): Promise<AuditVerifyResult> {
  const locateHash = options.locateHash ?? (async () => null);
  const chainKey = options.chainKey ?? null;
  let count = 0;
  let previous = { seq: 0, hash: GENESIS_HASH };
  const bad = (seq: number, problem: AuditProblem, message: string): AuditVerifyResult => ({
    ok: false,
    rows: count,
    firstBad: { seq, problem, message },
  });
  for await (const row of rows) {
    count += 1;
    const expectedSeq = previous.seq + 1;
    const keyed = chainKey !== null && row.seq >= chainKey.keyedFrom;
    const contentOk = expectedHash(row, chainKey) === row.hash;
    const mismatch = keyed
      ? `row ${row.seq} does not match its MAC: edited, forged or re-hashed without the audit key`
      : `row ${row.seq} does not match its hash`;
    if (row.seq !== expectedSeq) {
      return bad(expectedSeq, 'deleted', `row ${expectedSeq} is missing (next row is ${row.seq})`);
    }
    if (row.prevHash !== previous.hash) {
      const holder = await locateHash(row.prevHash);
      if (holder !== null && holder !== previous.seq) {
        return bad(
          row.seq,
          'reordered',
          `row ${row.seq} follows row ${holder}, not ${previous.seq}`,
        );
      }
      if (!contentOk) return bad(row.seq, 'edited', mismatch);
      return bad(
        row.seq,
        'chain-broken',
        `row ${row.seq} does not link to row ${previous.seq}: row ${previous.seq} was rewritten, or rows before ${row.seq} were deleted and the rest renumbered`,
      );
    }
    if (!contentOk) return bad(row.seq, 'edited', mismatch);
    previous = { seq: row.seq, hash: row.hash };
    if (options.head?.seq === row.seq && options.head.hash !== row.hash) {
      return bad(row.seq, 'chain-broken', `row ${row.seq} is not the row the head record names`);
    }
  }
  if (chainKey === null) {
    return { ok: true, rows: count, headSeq: previous.seq, headHash: previous.hash };
  }
  const head = options.head ?? null;
  if (head === null) {
    return bad(
      previous.seq + 1,
      'truncated',
      'the head record kept with the audit key is missing, so rows cut from the end cannot be ruled out',
    );
  }
  if (previous.seq < head.seq) {
    return bad(
      previous.seq + 1,
      'truncated',
      `rows ${previous.seq + 1}–${head.seq} are missing at the end (the head record kept with the audit key names row ${head.seq})`,
    );
  }
  return {
    ok: true,
    rows: count,
    headSeq: previous.seq,
    headHash: previous.hash,
    unkeyedRows: Math.min(count, chainKey.keyedFrom - 1),
  };
}
