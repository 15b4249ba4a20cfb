// Why docs/operations.md no longer says `sqlite3 clawdie.db ".backup …"`: when the server's POSIX
// locks on clawdie.db are gone (any close() of the file in the server's process drops them — the
// open/close in openDatabase did), a read-write sqlite3 process that closes believes it is the
// last connection, checkpoints and deletes the live -wal under the running server. `clawdie
// backup` snapshots through a read-only connection, which can neither checkpoint nor delete the
// WAL. (A read-write better-sqlite3 connection did not delete it here either — a build detail the
// backup does not rely on; this test guards against the sqlite3-CLI path, not that choice.)
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { runClawdie } from '../../../support/clawdie-cli.js';
import { startLiveServer } from './backup-fixture.js';

const run = promisify(execFile);

describe('backing up a live server whose locks were dropped', () => {
  it('clawdie backup leaves the live WAL in place; sqlite3 .backup deletes it', async (t) => {
    const scratch = mkdtempSync(join(tmpdir(), 'clawdie-backup-wal-'));
    t.after(() => rmSync(scratch, { recursive: true, force: true }));
    const live = await startLiveServer({ replyMs: 0 });
    t.after(() => live.close());
    await Promise.all((await live.start(2)).map((task) => task.done));
    const database = live.controlplane.config.databasePath;
    const wal = `${database}-wal`;
    assert.ok(existsSync(wal));
    closeSync(openSync(database, 'r')); // drops this process's POSIX locks on the file

    const backup = await runClawdie(['backup', join(scratch, 'clawdie')], {
      CLAWDIE_DATA_DIR: live.controlplane.dataDir,
    });
    assert.equal(backup.code, 0, backup.stderr);
    assert.ok(existsSync(wal), 'clawdie backup left the live -wal alone');

    await run('sqlite3', [database, `.backup '${join(scratch, 'sqlite3.db')}'`]);
    assert.equal(existsSync(wal), false, 'sqlite3 .backup deleted the live -wal on close');
  });
});
