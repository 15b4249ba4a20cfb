// A newer build started beside a running older server (an upgrade done the wrong way round: `git
// pull` and `npm start` while the old server still runs) is refused before it migrates the file:
// the running server must never find its schema changed under it.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import {
  claimDataDir,
  claimDataDirAt,
  DataDirInUseError,
} from '../../../../controlplane/src/platform/ownership/data-dir-owner.js';
import { applyMigrations, type Db } from '../../../../controlplane/src/platform/store/database.js';
import * as schema from '../../../../controlplane/src/platform/store/schema.js';
import { silentLogger } from '../../../support/silent-logger.js';

const shipped = fileURLToPath(new URL('../../../../controlplane/drizzle', import.meta.url));

/** The shipped migrations without the last: the schema of the build before this one. */
function previousMigrations(root: string): string {
  const folder = join(root, 'drizzle-previous');
  cpSync(shipped, folder, { recursive: true });
  const path = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(path, 'utf8')) as { entries: unknown[] };
  journal.entries.pop();
  writeFileSync(path, JSON.stringify(journal));
  return folder;
}

const migrationCount = (path: string) => {
  const sqlite = new Database(path, { readonly: true });
  try {
    return (sqlite.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number })
      .n;
  } finally {
    sqlite.close();
  }
};

const shippedCount = () =>
  (
    JSON.parse(readFileSync(join(shipped, 'meta', '_journal.json'), 'utf8')) as {
      entries: unknown[];
    }
  ).entries.length;

describe('the data-dir claim comes before the migrations', () => {
  const root = mkdtempSync(join(tmpdir(), 'clawdie-claim-migrate-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const base = { dataDir: root, logger: silentLogger, heartbeatMs: 60_000 };

  it('refuses a newer build beside a live older server without migrating its file', async () => {
    const path = join(root, 'served.db');
    const sqlite = new Database(path);
    const db = drizzle(sqlite, { schema }) as unknown as Db;
    applyMigrations(sqlite, db, previousMigrations(root));
    // The older server: this process, live, registered through its own connection.
    const server = await claimDataDir(db, { ...base, kind: 'server' });
    after(async () => {
      await server.close();
      sqlite.close();
    });
    const before = migrationCount(path);
    assert.equal(before, shippedCount() - 1);
    for (const kind of ['server', 'cli'] as const) {
      await assert.rejects(claimDataDirAt(path, { ...base, kind }), DataDirInUseError);
      assert.equal(migrationCount(path), before, `a refused ${kind} migrated the live file`);
    }
  });

  it('migrates and claims once no live server holds the file', async () => {
    const path = join(root, 'idle.db');
    const sqlite = new Database(path);
    applyMigrations(sqlite, drizzle(sqlite, { schema }) as unknown as Db, previousMigrations(root));
    sqlite.close();
    const owner = await claimDataDirAt(path, { ...base, kind: 'server' });
    try {
      assert.equal(migrationCount(path), shippedCount());
    } finally {
      await owner.close();
    }
  });
});
