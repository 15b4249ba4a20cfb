// Ends the database session holding a role lock (platform/store/pg/pg-role-lock.ts), as the
// server sees a holder that died or lost its connection: its lock is released at once.
import assert from 'node:assert/strict';
import pg from 'pg';

/** Terminates the one session holding role `name`'s advisory lock on `url`'s database. */
export async function terminateRoleHolder(url: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    // A bigint advisory key sits in pg_locks as classid (high half) and objid (low half).
    const { rows } = await admin.query(
      `SELECT pg_terminate_backend(l.pid) AS ended FROM pg_locks l JOIN pg_stat_activity a USING (pid)
       WHERE l.locktype = 'advisory' AND l.granted AND a.application_name = 'clawdie-role'
       AND l.objid::bigint = (hashtext($1)::bigint & 4294967295)`,
      [`clawdie.role:${name}`],
    );
    assert.deepEqual(rows, [{ ended: true }], `one session holds role ${name}`);
  } finally {
    await admin.end();
  }
}
