import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';
import {
  createTaskRepository,
  type NewTask,
} from '../../../../controlplane/src/platform/store/task-repository.js';

const migrations = fileURLToPath(new URL('../../../../controlplane/drizzle', import.meta.url));
const task = (id: string, createdAt: number, extra: Partial<NewTask> = {}): NewTask => ({
  id,
  instruction: `task ${id}`,
  startUrl: null,
  maxSteps: 5,
  modelName: 'm',
  coordinateMode: '1.5',
  createdAt,
  ...extra,
});

describe('task tenancy in the store', async () => {
  const database = openDatabase(':memory:');
  after(() => database.close());
  const repository = createTaskRepository(database.db);
  await repository.createTask(task('a1', 1, { tenant: 'acme', actor: 'tenant:acme/alice' }));
  await repository.createTask(task('g1', 2, { tenant: 'globex' }));
  await repository.createTask(task('a2', 3, { tenant: 'acme' }));
  await repository.createTask(task('d1', 4));

  it('defaults the tenant to `default` and the actor to null', async () => {
    assert.equal((await repository.getTask('d1'))?.tenant, 'default');
    assert.equal((await repository.getTask('d1'))?.actor, null);
    assert.equal((await repository.getTask('a1'))?.actor, 'tenant:acme/alice');
  });

  it("hides another tenant's task from getTask(id, tenant) and shows it without a tenant", async () => {
    assert.equal(await repository.getTask('g1', 'acme'), null);
    assert.equal((await repository.getTask('g1', 'globex'))?.id, 'g1');
    assert.equal((await repository.getTask('g1'))?.id, 'g1');
    assert.equal(await repository.getTask('missing', 'acme'), null);
  });

  it('filters the list and its total by tenant before paging', async () => {
    const page = await repository.listTasks({ limit: 1, offset: 0, tenant: 'acme' });
    assert.deepEqual(
      page.tasks.map((row) => row.id),
      ['a2'],
    );
    assert.equal(page.total, 2);
    const second = await repository.listTasks({
      limit: 1,
      offset: 1,
      tenant: 'acme',
      search: 'task',
    });
    assert.deepEqual(
      second.tasks.map((row) => row.id),
      ['a1'],
    );
    assert.equal(
      (await repository.listTasks({ limit: 10, offset: 0, tenant: 'initech' })).total,
      0,
    );
    assert.equal((await repository.listTasks({ limit: 10, offset: 0 })).total, 4);
  });

  it('uses the (tenant, created_at) index for a tenant list', () => {
    const plan = database.db.$client
      .prepare(
        'EXPLAIN QUERY PLAN SELECT id FROM tasks WHERE tenant = ? ORDER BY created_at DESC LIMIT 50',
      )
      .all('acme') as { detail: string }[];
    assert.match(plan.map((row) => row.detail).join('\n'), /tasks_tenant_created_at/);
  });
});

describe('the task tenant migration', () => {
  it('gives rows written before it the default tenant', async () => {
    // A database migrated up to 0002 only, with one task, then opened by the current code.
    const dir = mkdtempSync(join(tmpdir(), 'clawdie-migrate-'));
    const old = join(dir, 'drizzle');
    cpSync(migrations, old, { recursive: true });
    const journalFile = join(old, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8'));
    journal.entries = journal.entries.filter((entry: { idx: number }) => entry.idx <= 2);
    writeFileSync(journalFile, JSON.stringify(journal));
    const file = join(dir, 'clawdie.db');
    const sqlite = new Database(file);
    migrate(drizzle(sqlite), { migrationsFolder: old });
    sqlite
      .prepare(
        "INSERT INTO tasks (id, instruction, status, max_steps, model_name, coordinate_mode, created_at) VALUES ('old', 'x', 'finished', 5, 'm', '1.5', 1)",
      )
      .run();
    sqlite.close();

    const reopened = openDatabase(file);
    try {
      const row = await createTaskRepository(reopened.db).getTask('old');
      assert.equal(row?.tenant, 'default');
      assert.equal(row?.actor, null);
    } finally {
      reopened.close();
    }
  });
});
