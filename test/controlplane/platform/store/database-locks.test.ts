// The process keeps its SQLite locks however often it opens the database: an admin's
// `sqlite3 clawdie.db ".backup …"` against a live process must neither delete the live -wal nor
// hide the process's later writes from other processes. Closing any descriptor of a file drops
// every POSIX lock this process holds on it, so opening the file again in the same process (the
// composition root opens it for the data-dir claim and for the store) must never open and close
// it outside SQLite. Real files, the real sqlite3 shell in another process.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import { requires } from '../../../support/capabilities.js';

/** A count read by another process, the way the admin's shell or a second server sees it. */
function countElsewhere(path: string, table: string): number {
  return Number(execFileSync('sqlite3', [path, `select count(*) from ${table};`]).toString());
}

describe('database locks of a live process', requires('sqlite3'), () => {
  it('survive a second open in the same process: a sqlite3 .backup keeps the live WAL', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'clawdie-locks-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'clawdie.db');
    // The composition root's order: the data-dir claim's connection, then the store's.
    const claim = openDatabase(path);
    const store = openDatabase(path);
    t.after(() => {
      store.close();
      claim.close();
    });
    const insert = store.db.$client.prepare(
      "insert into audit_events (seq, at, type, actor, task_id, data, prev_hash, hash) values (?, 0, 't', 'a', null, '{}', 'p', 'h')",
    );
    insert.run(1);
    assert.ok(existsSync(`${path}-wal`), 'WAL mode keeps a -wal file beside the database');

    execFileSync('sqlite3', [path, `.backup ${join(dir, 'copy.db')}`]);

    assert.ok(existsSync(`${path}-wal`), 'the live -wal must still exist after the backup');
    insert.run(2);
    assert.equal(countElsewhere(path, 'audit_events'), 2, 'a write after the backup is visible');
    assert.equal(countElsewhere(join(dir, 'copy.db'), 'audit_events'), 1, 'the copy has the first');
  });

  it('creates a new database file owner-only', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'clawdie-locks-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'fresh', 'clawdie.db');
    const database = openDatabase(path);
    t.after(() => database.close());
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, 'fresh')).mode & 0o777, 0o700);
  });
});
