// The head record of the audit chain (seq and hash of the last row appended), kept with the key
// outside the database: rows cut from the end of the chain show as missing against it.
import { closeSync, constants, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import { AppError } from '../../errors.js';
import type { ChainHead } from './hash-chain.js';

/** Fixed length, so each update is one positional write over the previous record. */
const RECORD = /^clawdie-audit-head 1 (\d{16}) ([0-9a-f]{64})\n$/;
const encode = (head: ChainHead) =>
  Buffer.from(`clawdie-audit-head 1 ${String(head.seq).padStart(16, '0')} ${head.hash}\n`);

/** Writes the head record after each append. `write` must not throw into the append (it logs). */
export interface AuditHeadWriter {
  write(head: ChainHead): void;
  /** Writes a pending head now. */
  flush(): void;
  close(): void;
}

/**
 * Opens (creating, 0600) the head file for writing. Appends in one event-loop turn (an action
 * batch) coalesce into one `pwrite` at offset 0 of a fixed-length record, made on `setImmediate`
 * and on `close()`. `write` is called after each append's commit; appends in flight may report
 * out of chain order, so a head with a lower seq than one already given is dropped: the head never
 * moves backwards within this process and ends at the newest row. (Appends are serialized in the
 * database, so every row up to a committed one is committed.) Lagging behind the database is
 * harmless (rows past the head are still MACed); only a head past the end fails.
 */
export function openAuditHead(file: string, onError: (error: unknown) => void): AuditHeadWriter {
  const fd = openSync(file, constants.O_RDWR | constants.O_CREAT, 0o600);
  let written = readAuditHead(file)?.seq ?? 0;
  let pending: ChainHead | null = null;
  let scheduled = false;
  let closed = false;
  const flush = () => {
    scheduled = false;
    if (closed || !pending || pending.seq <= written) return;
    try {
      const record = encode(pending);
      writeSync(fd, record, 0, record.length, 0);
      written = pending.seq;
    } catch (error) {
      onError(error);
    }
  };
  return {
    write(head) {
      if (pending && head.seq <= pending.seq) return;
      pending = head;
      if (scheduled) return;
      scheduled = true;
      setImmediate(flush).unref();
    },
    flush,
    close() {
      flush();
      closed = true;
      closeSync(fd);
    },
  };
}

/**
 * Reads the head record: null when the file does not exist or is empty (no row appended yet).
 * Throws AppError `AUDIT_HEAD_INVALID` for anything else it cannot parse.
 */
export function readAuditHead(file: string): ChainHead | null {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8');
  if (text === '') return null;
  const match = RECORD.exec(text);
  if (!match) throw new AppError('AUDIT_HEAD_INVALID', `${file}: not an audit head record`);
  return { seq: Number(match[1]), hash: match[2] as string };
}
