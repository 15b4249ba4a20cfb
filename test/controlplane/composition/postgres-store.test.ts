// CLAWDIE_DATABASE_URL switches the whole controlplane to PostgreSQL: a task runs to its end with
// its trace and audit in PostgreSQL (verified by `clawdie audit verify` too), the store is named
// without a password, an unreachable server refuses the start with the host named, and the SQLite
// file copies of `clawdie backup` / `restore` refuse on PostgreSQL.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { printServerBanner } from '../../../controlplane/src/ingress/cli/server-banner.js';
import { createBackup } from '../../../controlplane/src/platform/backup/create-backup.js';
import { restoreBackup } from '../../../controlplane/src/platform/backup/restore-backup.js';
import { openPgDatabase } from '../../../controlplane/src/platform/store/pg/pg-database.js';
import { createPgTaskRepository } from '../../../controlplane/src/platform/store/pg/pg-task-repository.js';
import { describePgUrl } from '../../../controlplane/src/platform/store/stores.js';
import { requires } from '../../support/capabilities.js';
import { runClawdie } from '../../support/clawdie-cli.js';
import { createTestControlplane, testConfig } from '../../support/controlplane.js';
import { createPerTaskScriptModel } from '../../support/per-task-script-model.js';
import { fileCluster } from '../../support/postgres/start-postgres.js';
import { submit } from '../../support/submit-task.js';

const { database } = fileCluster();

describe('the store a controlplane opens', () => {
  it('names a PostgreSQL URL by host and database only, never its password', () => {
    assert.equal(
      describePgUrl('postgres://clawdie:s3cret@db.lan:5433/clawdie'),
      'db.lan:5433/clawdie',
    );
    assert.equal(
      describePgUrl('postgres://clawdie@localhost/cp?host=%2Ftmp%2Fpg'),
      '/tmp/pg (unix socket)/cp',
    );
    assert.equal(describePgUrl('not a url s3cret'), '(unparsable URL)');
  });

  it('refuses to start when PostgreSQL cannot be reached: typed, host named, password not', async () => {
    const error = await createTestControlplane({
      env: { CLAWDIE_DATABASE_URL: 'postgres://clawdie:s3cret@127.0.0.1:1/clawdie' },
    }).then(
      (controlplane) => controlplane.close().then(() => null),
      (refused: unknown) => refused as Error & { code?: string },
    );
    assert.ok(error, 'the start is refused');
    assert.equal(error.code, 'STORE_UNREACHABLE');
    assert.match(
      error.message,
      /PostgreSQL store at 127\.0\.0\.1:1\/clawdie \(CLAWDIE_DATABASE_URL\)/,
    );
    assert.doesNotMatch(error.message, /s3cret/);
  });
});

describe('a controlplane on PostgreSQL', requires('postgres'), () => {
  it('runs a task to its end with trace and audit in PostgreSQL; audit verify passes', async (t) => {
    // The throwaway cluster trusts local connections, so a password in the URL is only carried.
    const url = (await database()).replace('postgres://clawdie@', 'postgres://clawdie:s3cret@');
    const controlplane = await createTestControlplane({
      env: { CLAWDIE_DATABASE_URL: url },
      model: createPerTaskScriptModel(['Action: finished(content="done")']),
    });
    t.after(controlplane.close);
    const banner: string[] = [];
    const original = console.error;
    console.error = (line: string) => void banner.push(String(line));
    try {
      printServerBanner(controlplane, 'http://127.0.0.1:8700');
    } finally {
      console.error = original;
    }
    const store = banner.find((line) => line.startsWith('store: '));
    assert.match(store ?? '', /^store: PostgreSQL \/\S+ \(unix socket\)\/test_\d+$/);
    assert.doesNotMatch(banner.join('\n'), /s3cret/);
    const tasks = controlplane.createTasks(
      createPerTaskScriptModel(['Action: finished(content="done")']),
      { policed: false },
    );
    t.after(() => tasks.close());
    const started = await submit(tasks, { instruction: 'say done' });
    const result = await started.done;
    assert.equal(result.status, 'finished', JSON.stringify(result));

    // Another connection to the same database sees the task and its end.
    const other = await openPgDatabase(url);
    t.after(other.close);
    const row = await createPgTaskRepository(other.db).getTask(started.taskId);
    assert.equal(row?.status, 'finished');
    const types = (await controlplane.audit.list({ limit: 50 })).map((entry) => entry.type);
    assert.ok(types.includes('task-ended'), types.join());
    assert.equal((await controlplane.audit.verify()).ok, true);

    const verified = await runClawdie(['audit', 'verify'], {
      CLAWDIE_DATA_DIR: controlplane.dataDir,
      CLAWDIE_DATABASE_URL: url,
    });
    assert.equal(verified.code, 0, verified.stdout + verified.stderr);
    assert.match(verified.stdout + verified.stderr, /audit log intact: \d+ rows/);
  });

  it('refuses clawdie backup and restore on PostgreSQL (typed, pointing at pg_dump), touching nothing', async (t) => {
    const url = await database();
    const config = testConfig({ CLAWDIE_DATABASE_URL: url });
    const scratch = mkdtempSync(join(tmpdir(), 'clawdie-pg-backup-'));
    t.after(() => {
      rmSync(scratch, { recursive: true, force: true });
      rmSync(config.dataDir, { recursive: true, force: true });
    });
    const destination = join(scratch, 'backup');
    await assert.rejects(createBackup({ config, destination, onProgress: () => {} }), {
      code: 'BACKUP_POSTGRES',
      message: /pg_dump/,
    });
    assert.equal(existsSync(destination), false, 'no backup directory is made');
    await assert.rejects(restoreBackup({ config, source: destination, onProgress: () => {} }), {
      code: 'BACKUP_POSTGRES',
      message: /pg_restore/,
    });
  });
});
