import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import { type AuditHeadWriter, openAuditHead, readAuditHead } from './audit-head.js';
import { auditHeadPath, loadAuditKey } from './audit-key.js';
import { assertAuditKey } from './audit-key-check.js';
import { type AuditStore, type AuditTrail, createAuditLog } from './audit-log.js';

export interface OpenAuditTrailOptions {
  /** `config.auditKeyFile`; the head record lives next to it. */
  keyFile: string;
  clock: Pick<Clock, 'now'>;
  /**
   * `append`: create the key (and start the keyed chain) if missing while the chain has no keyed
   * rows; `verify`: read only.
   */
  mode: 'append' | 'verify';
  logger?: Logger;
  /**
   * The chain is shared by replicas (PostgreSQL): in `append` mode a key that is missing while the
   * chain has any rows refuses too, not only keyed ones (`assertAuditKey`).
   */
  shared?: boolean;
}

/**
 * The keyed audit trail over a store. In `append` mode a missing key is created when the chain
 * holds no keyed rows yet, keying rows from the next one on (older rows stay hash-chained only,
 * anchored by the first keyed row, an `audit-keyed` marker); each append then updates the head
 * record. When the chain already holds keyed rows, a missing key, or one that does not verify the
 * last of them, rejects with AppError `AUDIT_KEY_MISSING` / `AUDIT_KEY_MISMATCH` before anything
 * is created or written (`assertAuditKey`). A head record that does not
 * match the database at start (rows cut from the end while stopped, or the record deleted) is
 * left as it is, so verification keeps reporting it, and logged. In `verify` mode nothing is
 * created: a missing key rejects with AppError `AUDIT_KEY_MISSING`. `close()` releases the head
 * file. Resolves once the `audit-keyed` marker of a new key is committed and its head written.
 */
export async function openAuditTrail(
  store: AuditStore,
  options: OpenAuditTrailOptions,
): Promise<AuditTrail & { close(): void }> {
  const headFile = auditHeadPath(options.keyFile);
  const readHead = () => readAuditHead(headFile);
  if (options.mode === 'verify') {
    const chainKey = loadAuditKey(options.keyFile);
    return { ...createAuditLog(store, options.clock, { chainKey, readHead }), close() {} };
  }
  await assertAuditKey(store, options.keyFile, { shared: options.shared === true });
  const nextSeq = ((await store.tail())?.seq ?? 0) + 1;
  const chainKey = loadAuditKey(options.keyFile, {
    create: { nextSeq: () => nextSeq, now: options.clock.now() },
  });
  const onError = (error: unknown) =>
    options.logger?.error({ err: error, headFile }, 'audit head record write failed');
  const problem = chainKey.created
    ? null
    : await headProblem(store, readHead(), chainKey.keyedFrom);
  if (problem) options.logger?.error({ headFile, problem }, 'audit head record does not match');
  const head: AuditHeadWriter = problem
    ? { write() {}, flush() {}, close() {} }
    : openAuditHead(headFile, onError);
  const trail = createAuditLog(store, options.clock, { chainKey, head, readHead });
  if (chainKey.created) {
    await trail.append({
      type: 'audit-keyed',
      actor: 'system',
      data: { keyed_from: chainKey.keyedFrom, unkeyed_rows: chainKey.keyedFrom - 1 },
    });
    head.flush();
  }
  return { ...trail, close: () => head.close() };
}

/** Why the stored head record cannot be continued, or null when it matches the database. */
async function headProblem(
  store: AuditStore,
  head: ReturnType<typeof readAuditHead>,
  keyedFrom: number,
): Promise<string | null> {
  const tail = await store.tail();
  if (!head) {
    return tail && tail.seq >= keyedFrom ? 'missing while the database holds keyed rows' : null;
  }
  if (!tail || tail.seq < head.seq)
    return `names row ${head.seq}, the database ends at ${tail?.seq ?? 0}`;
  if ((await store.hashAt(head.seq)) !== head.hash)
    return `row ${head.seq} is not the row it names`;
  return null;
}
