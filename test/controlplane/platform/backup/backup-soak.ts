// Repeated `clawdie backup` processes while a live server keeps `concurrency` tasks running: each
// backup must hold every task (with all its steps) that had ended when it began and every audit
// row appended by then, pass `PRAGMA integrity_check` and verify its audit chain; the last one is
// restored and verified. Shared by the normal suite (small) and test/soak/ (full size).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { readManifest } from '../../../../controlplane/src/platform/backup/backup-manifest.js';
import { runClawdie } from '../../../support/clawdie-cli.js';
import { secondConnection, startLiveServer } from './backup-fixture.js';

export interface SoakFigures {
  backups: number;
  tasksDuring: number;
  /** Step rows the live server wrote while each backup ran (the load it was taken under). */
  stepsWrittenDuring: number[];
  lostRows: number;
  integrityErrors: number;
  wallMs: number[];
  snapshotMs: number[];
  databaseBytes: number[];
}

export async function soakBackups(
  t: TestContext,
  options: { backups: number; concurrency: number; replyMs?: number },
): Promise<SoakFigures> {
  const scratch = mkdtempSync(join(tmpdir(), 'clawdie-backup-soak-'));
  t.after(() => rmSync(scratch, { recursive: true, force: true }));
  const live = await startLiveServer({
    concurrency: options.concurrency,
    replyMs: options.replyMs ?? 20,
  });
  t.after(() => live.close());
  let stopping = false;
  let tasksDuring = 0;
  const keepBusy = async () => {
    while (!stopping) {
      const [task] = await live.start(1);
      tasksDuring += 1;
      await task?.done;
    }
  };
  const workers = Array.from({ length: options.concurrency }, keepBusy);
  const reader = secondConnection(live.controlplane.config.databasePath);
  t.after(() => reader.close());
  const sql = reader.db.$client;
  const figures: SoakFigures = {
    backups: 0,
    tasksDuring: 0,
    stepsWrittenDuring: [],
    lostRows: 0,
    integrityErrors: 0,
    wallMs: [],
    snapshotMs: [],
    databaseBytes: [],
  };
  let last = '';
  for (let index = 0; index < options.backups; index += 1) {
    const steps = new Map(
      (
        sql
          .prepare(
            'SELECT t.id AS id, count(s.id) AS steps FROM tasks t LEFT JOIN steps s ON s.task_id = t.id WHERE t.ended_at IS NOT NULL GROUP BY t.id',
          )
          .all() as { id: string; steps: number }[]
      ).map((row) => [row.id, row.steps]),
    );
    const auditBefore = sql.prepare('SELECT count(*) FROM audit_events').pluck().get() as number;
    last = join(scratch, `backup-${index}`);
    const countSteps = () => sql.prepare('SELECT count(*) FROM steps').pluck().get() as number;
    const stepsBefore = countSteps();
    const run = await runClawdie(['backup', last], {
      CLAWDIE_DATA_DIR: live.controlplane.dataDir,
    });
    figures.stepsWrittenDuring.push(countSteps() - stepsBefore);
    assert.equal(run.code, 0, run.stderr);
    const manifest = readManifest(last);
    const copy = secondConnection(join(last, 'clawdie.db'));
    const integrity = copy.db.$client.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') figures.integrityErrors += 1;
    const copied = new Map(
      (
        copy.db.$client
          .prepare('SELECT task_id AS id, count(*) AS steps FROM steps GROUP BY task_id')
          .all() as { id: string; steps: number }[]
      ).map((row) => [row.id, row.steps]),
    );
    for (const [id, count] of steps) if (copied.get(id) !== count) figures.lostRows += 1;
    if (manifest.database.audit_rows < auditBefore) figures.lostRows += 1;
    if (!manifest.audit_verified) figures.integrityErrors += 1;
    copy.close();
    figures.backups += 1;
    figures.wallMs.push(Math.round(run.ms));
    figures.snapshotMs.push(manifest.timings_ms.snapshot);
    figures.databaseBytes.push(manifest.files.find((file) => file.role === 'database')?.bytes ?? 0);
  }
  stopping = true;
  await Promise.all(workers);
  figures.tasksDuring = tasksDuring;
  const restored = join(scratch, 'restored');
  const restore = await runClawdie(['restore', last, '--data-dir', restored], {});
  assert.equal(restore.code, 0, restore.stderr);
  assert.match(restore.stderr, /restore: audit log intact/);
  const live_integrity = sql.pragma('integrity_check', { simple: true });
  assert.equal(live_integrity, 'ok', 'the live database after the backups');
  return figures;
}
