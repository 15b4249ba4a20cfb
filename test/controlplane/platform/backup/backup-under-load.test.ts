// `clawdie backup` as its own process against a live server that runs tasks and appends to the
// audit log meanwhile; `clawdie restore` into a fresh data dir; the restored copy then starts as
// a server of its own (on the same host, while the source's server still runs) and serves it all.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import Database from 'better-sqlite3';
import {
  createSecretVault,
  loadVaultKey,
} from '../../../../controlplane/src/governance/credentials/secret-vault.js';
import { readManifest } from '../../../../controlplane/src/platform/backup/backup-manifest.js';
import { createSecretRepository } from '../../../../controlplane/src/platform/store/secret-repository.js';
import { runClawdie } from '../../../support/clawdie-cli.js';
import { createTestControlplane, testConfig } from '../../../support/controlplane.js';
import { createFakeSessionTransfer } from '../../../support/fake-session-transfer.js';
import { bundle, cookieValue } from '../../browser/sessions/session-fixture.js';
import { SCRIPT, secondConnection, startLiveServer } from './backup-fixture.js';

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('clawdie backup / restore under load', () => {
  it('backs up a live server mid-load and restores a copy that verifies, decrypts and serves', async (t) => {
    const scratch = mkdtempSync(join(tmpdir(), 'clawdie-backup-'));
    t.after(() => rmSync(scratch, { recursive: true, force: true }));
    const live = await startLiveServer({ concurrency: 4 });
    t.after(() => live.close());
    const { dataDir } = live.controlplane;

    const first = await live.start(6);
    await Promise.all(first.map((task) => task.done));
    const secret = await live.saveSessionAndSecret('shop');
    // Load for as long as the backup runs (4 tasks at a time, batch after batch): however fast
    // the CLI is, tasks start, step and end while it takes its snapshot.
    let backingUp = true;
    const load = (async () => {
      while (backingUp) await Promise.all((await live.start(4)).map((task) => task.done));
    })();
    while (live.ended().length === first.length) await delay(5);
    const endedBefore = live.ended();
    const backupDir = join(scratch, 'backup');
    const backup = await runClawdie(['backup', backupDir], { CLAWDIE_DATA_DIR: dataDir });
    const runningDuring = live.ended().length - endedBefore.length;
    backingUp = false;
    await load;
    assert.equal(backup.code, 0, backup.stderr);
    assert.equal(backup.stdout.trim(), backupDir);
    assert.match(backup.stderr, /backup: database snapshot .* MB in .* s/);
    assert.match(backup.stderr, /audit log of the snapshot intact/);
    assert.ok(runningDuring > 0, 'tasks kept ending while the backup ran');

    const manifest = readManifest(backupDir);
    t.diagnostic(
      `backup ${backup.ms.toFixed(0)} ms wall (snapshot ${manifest.timings_ms.snapshot} ms, total ${manifest.timings_ms.total} ms in the CLI), ${manifest.files.length} files, database ${manifest.files.find((f) => f.role === 'database')?.bytes} bytes, ${manifest.database.tasks} tasks, ${manifest.database.audit_rows} audit rows`,
    );
    assert.equal(manifest.audit_verified, true);
    assert.deepEqual(manifest.missing, []);
    assert.ok(manifest.database.tasks >= endedBefore.length + 1);
    assert.ok(manifest.database.audit_head && manifest.database.audit_tail);
    assert.ok(manifest.database.audit_head.seq <= manifest.database.audit_tail.seq);
    assert.deepEqual(
      new Set(manifest.files.map((file) => file.role)),
      new Set(['audit-key', 'audit-head', 'secrets-key', 'database', 'trace']),
    );
    assert.equal(modeOf(backupDir), '700');
    for (const file of manifest.files) assert.equal(modeOf(join(backupDir, file.path)), '600');
    assert.ok(existsSync(`${live.controlplane.config.databasePath}-wal`), 'the live WAL is there');

    const restoredDir = join(scratch, 'restored');
    const restore = await runClawdie(['restore', backupDir, '--data-dir', restoredDir], {});
    assert.equal(restore.code, 0, restore.stderr);
    assert.match(restore.stderr, /restore: audit log intact/);
    assert.equal(modeOf(restoredDir), '700');
    const restoredDb = join(restoredDir, 'clawdie.db');
    const sqlite = new Database(restoredDb, { readonly: true });
    assert.deepEqual(sqlite.pragma('integrity_check', { simple: true }), 'ok');
    const ids = new Set(sqlite.prepare('SELECT id FROM tasks').pluck().all() as string[]);
    for (const id of endedBefore) assert.ok(ids.has(id), `task ${id} ended before the backup`);
    assert.equal(ids.size, manifest.database.tasks);
    const shots = sqlite
      .prepare('SELECT screenshot_path FROM steps WHERE screenshot_path IS NOT NULL')
      .pluck()
      .all() as string[];
    assert.ok(shots.length >= endedBefore.length * SCRIPT.length);
    for (const shot of shots) {
      assert.ok(shot.startsWith(join(restoredDir, 'traces')), shot);
      assert.ok(existsSync(shot), shot);
    }
    sqlite.close();

    const verify = await runClawdie(['audit', 'verify'], { CLAWDIE_DATA_DIR: restoredDir });
    assert.equal(verify.code, 0, verify.stderr);
    assert.match(verify.stderr, /audit log intact/);

    // The copy starts as a server beside the live one (its process registry was not copied).
    const restored = await createTestControlplane({
      config: testConfig({ CLAWDIE_DATA_DIR: restoredDir }),
      role: 'server',
    });
    t.after(() => restored.close());
    const transfer = createFakeSessionTransfer({ cookies: [], origins: [] });
    await restored.sessions.inject(
      { tenant: 'default', name: 'shop', taskId: endedBefore[0] as string, actor: 'test' },
      transfer,
    );
    assert.equal(transfer.imported[0]?.cookies[0]?.value, cookieValue);
    assert.deepEqual(transfer.imported[0]?.origins, bundle.origins);
    const connection = secondConnection(restoredDb);
    t.after(() => connection.close());
    const vault = createSecretVault(
      createSecretRepository(connection.db),
      loadVaultKey(restored.config.secretsKeyFile, { create: false }),
    );
    assert.equal(await vault.reveal('default', 'shop'), secret);
    // Tasks running at the snapshot end INTERRUPTED on the copy; none is left looking alive.
    const byStatus = await restored.repository.countTasksByStatus();
    assert.equal((byStatus.running ?? 0) + (byStatus.queued ?? 0), 0, JSON.stringify(byStatus));
    const task = await restored.repository.getTask(endedBefore[0] as string);
    assert.equal(task?.status, 'finished');
    assert.deepEqual(
      readFileSync(task?.finalScreenshotPath as string),
      readFileSync(join(dataDir, 'traces', task?.id as string, 'final.jpg')),
    );
  });
});
