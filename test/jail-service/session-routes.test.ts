import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SessionBundle, sessionBundleSchema } from '@clawdie/kit/jail-api';
import { requires } from '../support/capabilities.js';
import { loginThroughJail } from '../support/login-wall-login.js';
import { type LoginWallSite, startLoginWallSite } from '../support/login-wall-site.js';
import { startStaticSite } from '../support/static-site.js';
import { startTestJail, type TestJail } from './jail-harness.js';

const post = (jail: TestJail, path: string, body: unknown, token?: string | null) =>
  jail.client.fetch(
    path,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    },
    token,
  );

async function titleBecomes(jail: TestJail, wanted: string): Promise<void> {
  const end = Date.now() + 10_000;
  let title = '';
  while (Date.now() < end) {
    title = (await jail.client.state()).title;
    if (title === wanted) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(title, wanted);
}

describe('jail-service /session export and import (real Chromium)', requires('chromium'), () => {
  let site: LoginWallSite;
  let first: TestJail;
  let second: TestJail;
  let bundle: SessionBundle;

  before(async () => {
    site = await startLoginWallSite();
    [first, second] = await Promise.all([startTestJail(), startTestJail()]);
  });
  after(async () => {
    await Promise.all([first?.close(), second?.close()]);
    await site?.close();
  });

  it('exports the cookies, localStorage and IndexedDB of the chosen origins after a login', async () => {
    await loginThroughJail(first.client, site);
    assert.match((await first.client.state()).url, /\/account$/);
    await titleBecomes(first, 'Account · idb stored');
    const response = await post(first, '/session/export', { origins: [site.url] });
    assert.equal(response.status, 200);
    bundle = sessionBundleSchema.parse(await response.json());
    const sid = bundle.cookies.find((cookie) => cookie.name === 'sid');
    assert.ok(sid?.httpOnly, 'the HttpOnly session cookie is exported');
    assert.ok(site.issuedCookies().includes(sid.value));
    assert.deepEqual(bundle.origins[0]?.localStorage, [
      { key: 'clawdie-note', value: site.storageNote },
    ]);
    const [database] = bundle.origins[0]?.indexedDB?.databases ?? [];
    assert.equal(database?.name, 'clawdie-site');
    const [record] = database?.stores[0]?.records ?? [];
    assert.equal(record?.key, 'note');
    assert.equal((record?.value as { note?: string } | undefined)?.note, site.idbNote);
    assert.match((await first.client.state()).url, /\/account$/, 'the agent page did not move');
  });

  it('exports nothing for an origin without state', async () => {
    const response = await post(first, '/session/export', { origins: ['http://127.0.0.2:9'] });
    const other = sessionBundleSchema.parse(await response.json());
    assert.deepEqual(other.cookies, []);
    assert.deepEqual(other.origins, [
      {
        origin: 'http://127.0.0.2:9',
        localStorage: [],
        indexedDB: { databases: [], skipped: [] },
      },
    ]);
  });

  it('imports into a fresh browser, which then reaches /account without /login', async () => {
    const pages = () => site.requests.filter((request) => request.path !== '/favicon.ico');
    const seen = pages().length;
    const response = await post(second, '/session/import', bundle);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), {
      cookies: bundle.cookies.length,
      origins: 1,
      indexedDb: { databases: 1, records: 1 },
    });
    assert.equal(pages().length, seen, 'importing sent no request to the site');
    // A page of the origin that writes nothing itself: the seeded note is there before any script.
    await second.client.run([{ type: 'navigate', url: `${site.url}/nothing` }]);
    const copied = await post(second, '/session/export', { origins: [site.url] });
    assert.deepEqual((await copied.json()).origins, bundle.origins, 'storage was seeded');
    await second.client.run([{ type: 'navigate', url: `${site.url}/account` }]);
    assert.match((await second.client.state()).url, /\/account$/);
    await titleBecomes(second, 'Account · idb read');
    assert.deepEqual(
      pages()
        .slice(seen)
        .map((request) => [request.path, request.signedIn]),
      [
        ['/nothing', true],
        ['/account', true],
      ],
      'signed in from the first request, never sent to /login',
    );
  });

  it('seeds localStorage once for that origin, unseen by page scripts', async () => {
    const read = `<script>document.title = JSON.stringify({ note: localStorage.getItem('k'), seen: typeof window.__clawdieSeed })</script>`;
    const other = await startStaticSite({
      '/read': read,
      '/clear': '<script>localStorage.clear(); document.title = "cleared"</script>',
    });
    try {
      const entries = [{ key: 'k', value: 'v1' }];
      const seeded = { cookies: [], origins: [{ origin: other.url, localStorage: entries }] };
      assert.equal((await post(second, '/session/import', seeded)).status, 200);
      await second.client.run([{ type: 'navigate', url: `${other.url}/read` }]);
      assert.deepEqual(await second.client.titleJson(), { note: 'v1', seen: 'undefined' });
      await second.client.run([{ type: 'navigate', url: `${other.url}/clear` }]);
      await second.client.run([{ type: 'navigate', url: `${other.url}/read` }]);
      assert.deepEqual(await second.client.titleJson(), { note: null, seen: 'undefined' });
    } finally {
      await other.close();
    }
  });

  it('refuses cookies outside the bundle origins, bad origins and missing tokens', async () => {
    const stray = { ...bundle, origins: [{ origin: 'http://127.0.0.3:1', localStorage: [] }] };
    assert.equal((await post(second, '/session/import', stray)).status, 400);
    const path = await post(second, '/session/export', { origins: [`${site.url}/account`] });
    assert.equal(path.status, 400);
    assert.equal(
      (await post(second, '/session/export', { origins: [site.url] }, null)).status,
      401,
    );
    const huge = {
      cookies: [],
      origins: [{ origin: site.url, localStorage: [{ key: 'k', value: 'x'.repeat(3_000_000) }] }],
    };
    assert.equal((await post(second, '/session/import', huge)).status, 413);
  });
});
