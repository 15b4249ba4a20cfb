// PostgreSQL: every replica appends to ONE hash chain, so every replica must MAC with the same
// audit key. A replica with its own key would fork the keying (its rows verify with nobody's key
// file); it is refused at start instead.
import { existsSync } from 'node:fs';
import { AppError } from '../../errors.js';
import { openAuditHead, readAuditHead } from './audit-head.js';
import { auditHeadPath, loadAuditKey } from './audit-key.js';
import type { AuditStore } from './audit-log.js';
import { expectedHash } from './hash-chain.js';

const copyHint =
  'copy keys/audit.key from a running replica\'s data dir (every replica on one PostgreSQL database needs the same audit key and secrets.key; docs/operations.md, "PostgreSQL")';

/**
 * Refuses the start (AppError `AUDIT_KEY_MISSING` / `AUDIT_KEY_MISMATCH`) when the shared chain
 * has rows and `keyFile` is missing, or does not verify the chain's last row. A replica joining
 * with a copied key and no head record of its own starts one at that verified last row.
 */
export async function assertSharedAuditKey(store: AuditStore, keyFile: string): Promise<void> {
  const tail = await store.tail();
  if (!tail) return;
  if (!existsSync(keyFile)) {
    throw new AppError(
      'AUDIT_KEY_MISSING',
      `the shared audit log already holds ${tail.seq} rows but the audit key ${keyFile} does not exist: ${copyHint}`,
    );
  }
  const chainKey = loadAuditKey(keyFile);
  if (tail.seq < chainKey.keyedFrom) return;
  const [row] = await store.page(tail.seq - 1, 1);
  if (!row || expectedHash(row, chainKey) !== row.hash) {
    throw new AppError(
      'AUDIT_KEY_MISMATCH',
      `the audit key ${keyFile} does not verify row ${tail.seq} of the shared audit log (another key MACs it): ${copyHint}`,
    );
  }
  const headFile = auditHeadPath(keyFile);
  if (readAuditHead(headFile) === null) {
    const head = openAuditHead(headFile, () => {});
    head.write({ seq: row.seq, hash: row.hash });
    head.close();
  }
}
