// Opening the PostgreSQL store: migrations under an advisory lock, the append-only audit table,
// the pool's session settings. A real cluster (test/support/postgres).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { openPgDatabase } from '../../../../controlplane/src/platform/store/pg/pg-database.js';
import { requires } from '../../../support/capabilities.js';
import { type PostgresCluster, startPostgres } from '../../../support/postgres/start-postgres.js';

describe('PostgreSQL store', requires('postgres'), () => {
  let cluster: PostgresCluster;
  before(async () => {
    cluster = await startPostgres();
  });
  after(() => cluster?.stop());

  const journal = new URL(
    '../../../../controlplane/drizzle-pg/meta/_journal.json',
    import.meta.url,
  );
  const migrationCount = (JSON.parse(readFileSync(journal, 'utf8')) as { entries: unknown[] })
    .entries.length;

  it('migrates once when several replicas open a fresh database at the same time', async (t) => {
    const url = await cluster.createDatabase();
    const results = await Promise.allSettled([1, 2, 3, 4].map(() => openPgDatabase(url)));
    const opened = results.flatMap((result) =>
      result.status === 'fulfilled' ? [result.value] : [],
    );
    t.after(() => Promise.all(opened.map((database) => database.close())));
    assert.deepEqual(
      results.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : [])),
      [],
    );
    const { rows } = await (opened[0] ?? assert.fail()).db.$client.query(
      'SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations',
    );
    // Once each: as many rows as the journal has migrations.
    assert.deepEqual(rows, [{ n: migrationCount }]);
  });

  it('refuses UPDATE, DELETE and TRUNCATE of audit_events in the database itself', async (t) => {
    const database = await openPgDatabase(await cluster.createDatabase());
    t.after(() => database.close());
    const client = database.db.$client;
    await client.query(
      "INSERT INTO audit_events VALUES (1, 1795000000000, 't', 'a', NULL, '{}', 'p', 'h')",
    );
    for (const statement of [
      "UPDATE audit_events SET actor = 'x'",
      'DELETE FROM audit_events',
      'TRUNCATE audit_events',
    ]) {
      await assert.rejects(client.query(statement), /audit_events is append-only/, statement);
    }
    const { rows } = await client.query('SELECT actor FROM audit_events');
    assert.deepEqual(rows, [{ actor: 'a' }]);
  });

  it('names its connections clawdie and bounds every statement', async (t) => {
    const database = await openPgDatabase(await cluster.createDatabase(), {
      statementTimeoutMs: 200,
    });
    t.after(() => database.close());
    const client = database.db.$client;
    const { rows } = await client.query(
      "SELECT current_setting('application_name') AS name, current_setting('statement_timeout') AS timeout",
    );
    assert.deepEqual(rows, [{ name: 'clawdie', timeout: '200ms' }]);
    await assert.rejects(client.query('SELECT pg_sleep(2)'), /statement timeout/);
  });

  it('rejects when the server cannot be reached', async () => {
    const url = `${cluster.url.replace('/postgres?', '/postgres?port=1&')}`;
    await assert.rejects(openPgDatabase(url), /ECONNREFUSED|ENOENT|connect/);
  });
});
