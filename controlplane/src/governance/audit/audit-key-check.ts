// Before an append-mode start writes anything: the audit key at hand must be the one that keyed
// the chain. A missing key would otherwise be created afresh (loadAuditKey) and every keyed row
// already stored could never be verified again — on SQLite (a key file on an unmounted volume,
// moved, or CLAWDIE_AUDIT_KEY_FILE changed) as on PostgreSQL (a replica with its own key would
// fork the keying). docs/operations.md, "The audit key at start".
import { existsSync } from 'node:fs';
import { AppError } from '../../errors.js';
import { openAuditHead, readAuditHead } from './audit-head.js';
import { auditHeadPath, loadAuditKey } from './audit-key.js';
import type { AuditStore, AuditTail } from './audit-log.js';
import { expectedHash } from './hash-chain.js';

const replicaHint =
  'copy keys/audit.key from a running replica\'s data dir (every replica on one PostgreSQL database needs the same audit key and secrets.key; docs/operations.md, "PostgreSQL")';
const restoreHint = (keyFile: string) =>
  `restore the key file to ${keyFile}, or point CLAWDIE_AUDIT_KEY_FILE (or CLAWDIE_DATA_DIR) at where it is; nothing was written (docs/operations.md, "The audit key at start")`;

/**
 * Refuses the start (AppError `AUDIT_KEY_MISSING` / `AUDIT_KEY_MISMATCH`), before any key is
 * created or row appended, when the chain already holds keyed rows (from its first `audit-keyed`
 * marker on) and `keyFile` is missing, or does not verify the last of them. A chain without keyed
 * rows (a fresh database, or one from before keying) may get a new key. `shared` (PostgreSQL
 * replicas): every row counts, since the first replica keyed the chain from its first row; and a
 * replica joining with a copied key and no head record of its own starts one at the verified row.
 */
export async function assertAuditKey(
  store: AuditStore,
  keyFile: string,
  options: { shared: boolean },
): Promise<void> {
  const tail = await store.tail();
  if (!tail) return;
  const [marker] = await store.list({ type: 'audit-keyed', limit: 1 });
  const keyedRows = marker ? tail.seq - marker.seq + 1 : 0;
  const described = describe(tail, keyedRows, options.shared);
  const hint = options.shared ? replicaHint : restoreHint(keyFile);
  if (!existsSync(keyFile)) {
    if (!options.shared && keyedRows === 0) return;
    throw new AppError(
      'AUDIT_KEY_MISSING',
      `${described} but the audit key ${keyFile} does not exist (a new key would leave them unverifiable): ${hint}`,
    );
  }
  const chainKey = loadAuditKey(keyFile);
  if (tail.seq < chainKey.keyedFrom) {
    if (keyedRows === 0) return;
    throw new AppError(
      'AUDIT_KEY_MISMATCH',
      `${described} but the audit key ${keyFile} keys rows from ${chainKey.keyedFrom} on: it is another chain's key: ${hint}`,
    );
  }
  const [row] = await store.page(tail.seq - 1, 1);
  if (!row || expectedHash(row, chainKey) !== row.hash) {
    throw new AppError(
      'AUDIT_KEY_MISMATCH',
      `the audit key ${keyFile} does not verify row ${tail.seq} of the ${options.shared ? 'shared ' : ''}audit log (another key MACs it; ${described}): ${hint}`,
    );
  }
  const headFile = auditHeadPath(keyFile);
  if (options.shared && readAuditHead(headFile) === null) {
    const head = openAuditHead(headFile, () => {});
    head.write({ seq: row.seq, hash: row.hash });
    head.close();
  }
}

function describe(tail: AuditTail, keyedRows: number, shared: boolean): string {
  if (shared) return `the shared audit log already holds ${tail.seq} rows`;
  const from = tail.seq - keyedRows + 1;
  return `the audit log holds ${keyedRows} keyed rows (rows ${from}–${tail.seq}, from its audit-keyed marker on)`;
}
