// npm run bench:audit — keyed (HMAC-SHA256 + head record) audit appends per second (one durable IMMEDIATE transaction
// per append, WAL + synchronous=NORMAL, as the controlplane opens its database), and the time
// `clawdie audit verify` takes over a log of BENCH_VERIFY_ROWS rows (default 1,000,000).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../controlplane/src/clock.js';
import { openAuditHead } from '../controlplane/src/governance/audit/audit-head.js';
import { auditHeadPath, loadAuditKey } from '../controlplane/src/governance/audit/audit-key.js';
import { type AuditLog, createAuditLog } from '../controlplane/src/governance/audit/audit-log.js';
import { canonicalJson } from '../controlplane/src/governance/audit/canonical-json.js';
import { GENESIS_HASH, rowMac } from '../controlplane/src/governance/audit/hash-chain.js';
import { openAuditTrail } from '../controlplane/src/governance/audit/open-audit-trail.js';
import { createAuditRepository } from '../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../controlplane/src/platform/store/database.js';
import { percentile, round } from './bench-stats.js';

const appends = Number(process.env.BENCH_APPENDS ?? 50_000);
const verifyRows = Number(process.env.BENCH_VERIFY_ROWS ?? 1_000_000);
const dir = mkdtempSync(join(tmpdir(), 'clawdie-bench-audit-'));

const event = (i: number) => ({
  type: 'action-executed' as const,
  actor: 'tenant:acme/bench',
  taskId: '00000000-0000-4000-8000-000000000001',
  data: { step: i, index: 0, type: 'click', status: 'ok', x: 640, y: 400, duration_ms: 12.5 },
});

try {
  // 1. Appends through the real AuditLog (read tail + MAC + insert, one transaction each, then
  // the head record write), as the controlplane opens it.
  const database = openDatabase(join(dir, 'append.db'));
  const log = await openAuditTrail(createAuditRepository(database.db), {
    keyFile: join(dir, 'append-keys', 'audit.key'),
    clock: systemClock,
    mode: 'append',
  });
  for (let i = 0; i < 1000; i++) await log.append(event(i));
  const started = performance.now();
  for (let i = 0; i < appends; i++) await log.append(event(i));
  const appendSeconds = (performance.now() - started) / 1000;
  log.close();
  database.close();

  // 1b. The key's cost on a shared, noisy host: interleaved blocks of keyed and unkeyed
  // (hash-only, the chain before the key) appends, CPU µs per append, compared by medians.
  const plainDb = openDatabase(join(dir, 'plain.db'));
  const plain = createAuditLog(createAuditRepository(plainDb.db), systemClock);
  const keyedDb = openDatabase(join(dir, 'keyed.db'));
  const keyed = await openAuditTrail(createAuditRepository(keyedDb.db), {
    keyFile: join(dir, 'keyed-keys', 'audit.key'),
    clock: systemClock,
    mode: 'append',
  });
  // CPU time (user + system) of this process, so other processes on the host skew it less.
  const block = async (target: AuditLog) => {
    const at = process.cpuUsage();
    for (let i = 0; i < 2000; i++) await target.append(event(i));
    const used = process.cpuUsage(at);
    return (used.user + used.system) / 2000;
  };
  const plainUs: number[] = [];
  const keyedUs: number[] = [];
  for (let round = 0; round < 20; round++) {
    // Alternate which goes first, so neither always pays for the other's garbage.
    if (round % 2) plainUs.push(await block(plain));
    keyedUs.push(await block(keyed));
    if (!(round % 2)) plainUs.push(await block(plain));
  }
  keyed.close();
  plainDb.close();
  keyedDb.close();

  // 2. A large log, built quickly (batched transaction, same MAC), then verified.
  const big = openDatabase(join(dir, 'verify.db'));
  const keyFile = join(dir, 'verify-keys', 'audit.key');
  const { key } = loadAuditKey(keyFile, { create: { nextSeq: () => 1, now: Date.now() } });
  const sqlite = big.db.$client;
  const insert = sqlite.prepare(
    'INSERT INTO audit_events (seq, at, type, actor, task_id, data, prev_hash, hash) VALUES (@seq, @at, @type, @actor, @taskId, @data, @prevHash, @hash)',
  );
  let prevHash = GENESIS_HASH;
  const fill = sqlite.transaction((from: number, to: number) => {
    for (let seq = from; seq <= to; seq++) {
      const e = event(seq);
      const row = {
        seq,
        at: 1_700_000_000_000 + seq,
        type: e.type,
        actor: e.actor,
        taskId: e.taskId,
        data: canonicalJson(e.data),
        prevHash,
      };
      prevHash = rowMac(row, key);
      insert.run({ ...row, hash: prevHash });
    }
  });
  const built = performance.now();
  for (let from = 1; from <= verifyRows; from += 100_000)
    fill(from, Math.min(verifyRows, from + 99_999));
  const buildSeconds = (performance.now() - built) / 1000;
  const head = openAuditHead(auditHeadPath(keyFile), (error) => {
    throw error;
  });
  head.write({ seq: verifyRows, hash: prevHash });
  head.close();
  const trail = await openAuditTrail(createAuditRepository(big.db), {
    keyFile,
    clock: systemClock,
    mode: 'verify',
  });
  const verifyStarted = performance.now();
  const result = await trail.verify();
  const verifySeconds = (performance.now() - verifyStarted) / 1000;
  big.close();
  if (!result.ok || result.rows !== verifyRows)
    throw new Error(`verify failed: ${JSON.stringify(result)}`);

  console.log(
    JSON.stringify(
      {
        appends,
        append_seconds: round(appendSeconds, 3),
        appends_per_second: Math.round(appends / appendSeconds),
        append_us_mean: round((appendSeconds * 1e6) / appends),
        interleaved_unkeyed_cpu_us_median: round(percentile(plainUs, 50)),
        interleaved_keyed_cpu_us_median: round(percentile(keyedUs, 50)),
        interleaved_unkeyed_cpu_us_min: round(Math.min(...plainUs)),
        interleaved_keyed_cpu_us_min: round(Math.min(...keyedUs)),
        key_overhead_percent: round(
          (100 * (percentile(keyedUs, 50) - percentile(plainUs, 50))) / percentile(plainUs, 50),
          1,
        ),
        verify_rows: verifyRows,
        verify_seconds: round(verifySeconds, 3),
        verify_rows_per_second: Math.round(verifyRows / verifySeconds),
        bulk_build_seconds: round(buildSeconds, 3),
        verify_db_mb: round(statSync(join(dir, 'verify.db')).size / 1e6, 1),
      },
      null,
      2,
    ),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
