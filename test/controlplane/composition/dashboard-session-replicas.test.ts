// Dashboard logins on replicas sharing PostgreSQL: a login through one replica holds on the other
// (no sticky sessions at the balancer), a logout through either ends it on both, and the database
// holds only the SHA-256 of the cookie's id, never the id.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it, type TestContext } from 'node:test';
import { openPgDatabase } from '../../../controlplane/src/platform/store/pg/pg-database.js';
import { requires } from '../../support/capabilities.js';
import {
  freshDatabase as database,
  dataDirWithKeyOf,
  startReplica,
} from '../../support/postgres/replica-fixture.js';

const ADMIN_TOKEN = 'replica-admin-token-0123456789ab';

async function twoReplicas(t: TestContext, url: string) {
  const env = { CLAWDIE_ADMIN_TOKEN: ADMIN_TOKEN };
  const a = await startReplica(t, url, dataDirWithKeyOf(null, t), { role: 'server', env });
  const b = await startReplica(t, url, dataDirWithKeyOf(a.dataDir, t), { role: 'server', env });
  return [await a.serve(), await b.serve()] as const;
}

/** Logs in through the form at `base`; the `name=value` of the session cookie. */
async function logIn(base: string): Promise<string> {
  const response = await fetch(`${base}/dashboard/login`, {
    method: 'POST',
    body: new URLSearchParams({ token: ADMIN_TOKEN, next: '/dashboard' }),
    redirect: 'manual',
  });
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  assert.equal(response.status, 303);
  assert.ok(cookie, 'a session cookie');
  return cookie;
}

const page = (base: string, cookie: string) =>
  fetch(`${base}/dashboard`, { headers: { cookie, accept: 'text/html' }, redirect: 'manual' });

describe('dashboard sessions on replicas sharing PostgreSQL', requires('postgres'), () => {
  it('a login through A is good on B, and a logout through B ends it on A', async (t) => {
    const url = await database();
    const [a, b] = await twoReplicas(t, url);
    const cookie = await logIn(a);
    assert.equal((await page(a, cookie)).status, 200);
    const onB = await page(b, cookie);
    assert.equal(onB.status, 200, `B redirected to ${onB.headers.get('location')}`);
    assert.match(await onB.text(), /Clawdie/);

    const logout = await fetch(`${b}/dashboard/logout`, {
      method: 'POST',
      headers: { cookie },
      redirect: 'manual',
    });
    assert.equal(logout.status, 303);
    for (const base of [a, b]) {
      const refused = await page(base, cookie);
      assert.equal(refused.status, 303);
      assert.match(refused.headers.get('location') ?? '', /^\/dashboard\/login\?next=/);
      const api = await fetch(`${base}/dashboard`, { headers: { cookie }, redirect: 'manual' });
      assert.equal(api.status, 401);
    }
  });

  it('stores only the SHA-256 of the session id, never the cookie value', async (t) => {
    const url = await database();
    const [a] = await twoReplicas(t, url);
    const cookie = await logIn(a);
    const id = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1));
    const opened = await openPgDatabase(url);
    t.after(opened.close);
    const { rows } = await opened.db.$client.query('select * from dashboard_sessions');
    assert.equal(rows.length, 1);
    assert.equal(rows[0].id_hash, createHash('sha256').update(id).digest('hex'));
    const dump = JSON.stringify(rows);
    assert.equal(dump.includes(id), false, 'the cookie id appears in the table');
    const all = await opened.db.$client.query(
      "select count(*)::int as n from dashboard_sessions t where t::text like '%' || $1 || '%'",
      [id],
    );
    assert.equal(all.rows[0].n, 0);
  });
});
