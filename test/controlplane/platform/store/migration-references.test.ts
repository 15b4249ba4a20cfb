// A migration that rebuilds a table (the way drizzle-kit writes a column change on SQLite: a new
// table, a copy, `DROP TABLE` of the old one, a rename) must keep the rows that reference it. drizzle
// runs migrations in one transaction, where `PRAGMA foreign_keys = OFF` does nothing, so with
// foreign keys on the drop deletes every step and event of every task through ON DELETE CASCADE.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import {
  applyMigrations,
  type Db,
  openDatabase,
} from '../../../../controlplane/src/platform/store/database.js';
import * as schema from '../../../../controlplane/src/platform/store/schema.js';
import { createTaskRepository } from '../../../../controlplane/src/platform/store/task-repository.js';

const shipped = fileURLToPath(new URL('../../../../controlplane/drizzle', import.meta.url));

/** A copy of the shipped migrations plus one more, `sql` (statements split by breakpoints). */
function migrationsWith(root: string, tag: string, statements: string[]): string {
  const folder = join(root, `drizzle-${tag}`);
  cpSync(shipped, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as {
    entries: { idx: number; when: number; tag: string; version: string; breakpoints: boolean }[];
  };
  const last = journal.entries.at(-1);
  assert.ok(last);
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1, tag });
  writeFileSync(journalPath, JSON.stringify(journal));
  writeFileSync(join(folder, `${tag}.sql`), statements.join('\n--> statement-breakpoint\n'));
  return folder;
}

/** A database at the shipped schema holding one task with two steps. */
async function databaseWithSteps(path: string): Promise<string> {
  const { db, close } = openDatabase(path);
  const repository = createTaskRepository(db);
  await repository.createTask({
    id: 't1',
    instruction: 'keep my steps',
    startUrl: null,
    maxSteps: 5,
    modelName: 'm',
    coordinateMode: '1.5',
    createdAt: 1,
  });
  await repository.insertStep('t1', 0, 2);
  await repository.insertStep('t1', 1, 3);
  const tasksSql = (
    db.$client.prepare("SELECT sql FROM sqlite_master WHERE name = 'tasks'").get() as {
      sql: string;
    }
  ).sql;
  close();
  return tasksSql;
}

/** Opens `path` and applies `folder`'s migrations the way openDatabase does. */
function migrateWith(path: string, folder: string, foreignKeysFirst: boolean) {
  const sqlite = new Database(path);
  if (foreignKeysFirst) sqlite.pragma('foreign_keys = ON');
  const db = drizzle(sqlite, { schema }) as unknown as Db;
  return { sqlite, db, run: () => applyMigrations(sqlite, db, folder) };
}

const stepCount = (sqlite: Database.Database) =>
  (sqlite.prepare("SELECT count(*) AS n FROM steps WHERE task_id = 't1'").get() as { n: number }).n;

describe('migrations and the rows that reference a rebuilt table', () => {
  const root = mkdtempSync(join(tmpdir(), 'clawdie-migration-refs-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it("keeps a task's steps when a migration rebuilds the tasks table", async () => {
    const path = join(root, 'rebuild.sqlite');
    const tasksSql = await databaseWithSteps(path);
    const folder = migrationsWith(root, '9000_rebuild_tasks', [
      'PRAGMA foreign_keys=OFF;',
      `${tasksSql.replace(/^CREATE TABLE [`"]?tasks[`"]?/, 'CREATE TABLE `__new_tasks`')};`,
      'INSERT INTO `__new_tasks` SELECT * FROM `tasks`;',
      'DROP TABLE `tasks`;',
      'ALTER TABLE `__new_tasks` RENAME TO `tasks`;',
      'PRAGMA foreign_keys=ON;',
    ]);
    // Foreign keys already on when the migrations start: what openDatabase did before.
    const { sqlite, run } = migrateWith(path, folder, true);
    try {
      run();
      assert.equal(stepCount(sqlite), 2, 'the rebuild kept the steps');
      assert.equal(sqlite.pragma('foreign_keys', { simple: true }), 1, 'foreign keys back on');
      assert.deepEqual(sqlite.pragma('foreign_key_check'), []);
    } finally {
      sqlite.close();
    }
  });

  it('shows the cascade it prevents: the same rebuild with foreign keys on loses the steps', async () => {
    const path = join(root, 'cascade.sqlite');
    const tasksSql = await databaseWithSteps(path);
    const sqlite = new Database(path);
    try {
      sqlite.pragma('foreign_keys = ON');
      sqlite.transaction(() => {
        sqlite.exec(tasksSql.replace(/^CREATE TABLE [`"]?tasks[`"]?/, 'CREATE TABLE __new_tasks'));
        sqlite.exec('INSERT INTO __new_tasks SELECT * FROM tasks');
        sqlite.exec('DROP TABLE tasks');
        sqlite.exec('ALTER TABLE __new_tasks RENAME TO tasks');
      })();
      assert.equal(stepCount(sqlite), 0);
    } finally {
      sqlite.close();
    }
  });

  it('refuses to start, rows kept, when a migration leaves references dangling', async () => {
    const path = join(root, 'dangling.sqlite');
    await databaseWithSteps(path);
    const folder = migrationsWith(root, '9001_drop_a_task', [
      "DELETE FROM `tasks` WHERE id = 't1';",
    ]);
    const { sqlite, run } = migrateWith(path, folder, false);
    try {
      assert.throws(run, (error: Error & { code?: string }) => {
        assert.equal(error.code, 'DATABASE_MIGRATION_BROKE_REFERENCES');
        assert.match(error.message, /2 row\(s\) reference rows that are gone \(steps → tasks\)/);
        return true;
      });
      assert.equal(stepCount(sqlite), 2);
    } finally {
      sqlite.close();
    }
  });

  it('opens the shipped schema with foreign keys on and nothing dangling', () => {
    const { db, close } = openDatabase(':memory:');
    try {
      assert.equal(db.$client.pragma('foreign_keys', { simple: true }), 1);
      assert.deepEqual(db.$client.pragma('foreign_key_check'), []);
    } finally {
      close();
    }
  });
});
