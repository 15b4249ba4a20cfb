// The audit log's storage on better-sqlite3: raw prepared statements, one IMMEDIATE transaction
// per append (read tail + insert), keyset pages for verification. better-sqlite3 is synchronous:
// each method does its work when called and returns a settled Promise (the port is asynchronous
// for a networked adapter), so an append is committed before `append` returns.
import type { AuditListQuery, AuditStore } from '../../governance/audit/audit-log.js';
import type { AuditRow } from '../../governance/audit/hash-chain.js';
import type { Db } from './database.js';

interface RawRow {
  seq: number;
  at: number;
  type: string;
  actor: string;
  task_id: string | null;
  data: string;
  prev_hash: string;
  hash: string;
}

const columns = 'seq, at, type, actor, task_id, data, prev_hash, hash';
const toRow = (raw: RawRow): AuditRow => ({
  seq: raw.seq,
  at: raw.at,
  type: raw.type,
  actor: raw.actor,
  taskId: raw.task_id,
  data: raw.data,
  prevHash: raw.prev_hash,
  hash: raw.hash,
});

/** The SQLite audit store (table `audit_events`, append-only by trigger). */
export function createAuditRepository(db: Db): AuditStore {
  const sqlite = db.$client;
  const tail = sqlite.prepare<[], { seq: number; hash: string }>(
    'SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1',
  );
  const insert = sqlite.prepare(
    `INSERT INTO audit_events (${columns}) VALUES (@seq, @at, @type, @actor, @taskId, @data, @prevHash, @hash)`,
  );
  const pageAfter = sqlite.prepare<[number, number], RawRow>(
    `SELECT ${columns} FROM audit_events WHERE seq > ? ORDER BY seq LIMIT ?`,
  );
  const byHash = sqlite.prepare<[string], { seq: number }>(
    'SELECT seq FROM audit_events WHERE hash = ? LIMIT 1',
  );
  const atSeq = sqlite.prepare<[number], { hash: string }>(
    'SELECT hash FROM audit_events WHERE seq = ?',
  );
  const appendOne = sqlite.transaction((build: Parameters<AuditStore['append']>[0]) => {
    const row = build(tail.get() ?? null);
    insert.run(row);
    return row;
  });

  return {
    append: async (build) => appendOne.immediate(build),
    page: async (afterSeq, limit) => pageAfter.all(afterSeq, limit).map(toRow),
    tail: async () => tail.get() ?? null,
    hashAt: async (seq) => atSeq.get(seq)?.hash ?? null,
    seqOfHash: async (hash) => byHash.get(hash)?.seq ?? null,
    async list(query) {
      const { where, params } = whereOf(query);
      const order = query.newestFirst ? 'DESC' : 'ASC';
      return sqlite
        .prepare<unknown[], RawRow>(
          `SELECT ${columns} FROM audit_events ${where} ORDER BY seq ${order} LIMIT ?`,
        )
        .all(...params, query.limit)
        .map(toRow);
    },
  };
}

/** The WHERE clause of a list query, with its bound parameters (never interpolated values). */
function whereOf(query: AuditListQuery): { where: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, ...values: unknown[]) => {
    clauses.push(clause);
    params.push(...values);
  };
  if (query.afterSeq) add('seq > ?', query.afterSeq);
  if (query.beforeSeq !== undefined) add('seq < ?', query.beforeSeq);
  if (query.taskId !== undefined) add('task_id = ?', query.taskId);
  if (query.type !== undefined) add('type = ?', query.type);
  if (query.since !== undefined) add('at >= ?', query.since);
  if (query.until !== undefined) add('at <= ?', query.until);
  if (query.tenant !== undefined)
    add(
      "(substr(actor, 1, length(?) + 8) = 'tenant:' || ? || '/' OR task_id IN (SELECT id FROM tasks WHERE tenant = ?))",
      query.tenant,
      query.tenant,
      query.tenant,
    );
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}
