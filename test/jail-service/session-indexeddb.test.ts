// IndexedDB in saved sessions, on real Chromium: a site's database is exported from one browser
// and imported into a fresh one, where the site's own first script reads it; values that cannot
// round-trip are skipped by name; limits are refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SESSION_LIMITS, type SessionBundle, sessionBundleSchema } from '@clawdie/kit/jail-api';
import { requires } from '../support/capabilities.js';
import { type StaticSite, startStaticSite } from '../support/static-site.js';
import {
  BIG_PAGE,
  INSTALL_WORKER_PAGE,
  MAKE_PAGE,
  READ_PAGE,
  SERVICE_WORKER,
} from './indexeddb-pages.js';
import { startTestJail, type TestJail } from './jail-harness.js';

const post = (jail: TestJail, path: string, body: unknown) =>
  jail.client.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function titleOnce(jail: TestJail, wanted: (title: string) => boolean): Promise<string> {
  const end = Date.now() + 10_000;
  for (;;) {
    const { title } = await jail.client.state();
    if (wanted(title)) return title;
    if (Date.now() > end) throw new Error(`page title stayed ${title}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const settled = (title: string) => title !== 'reading' && title !== 'making';

describe('jail-service /session IndexedDB (real Chromium)', requires('chromium'), () => {
  let site: StaticSite;
  let source: TestJail;
  let fresh: TestJail;
  let bundle: SessionBundle;

  before(async () => {
    site = await startStaticSite({ '/make': MAKE_PAGE, '/big': BIG_PAGE, '/read': READ_PAGE });
    [source, fresh] = await Promise.all([startTestJail(), startTestJail()]);
  });
  after(async () => {
    await Promise.all([source?.close(), fresh?.close()]);
    await site?.close();
  });

  it('exports databases, stores, indexes and records, skipping a Blob and an oversized database by name', async () => {
    for (const path of ['/make', '/big']) {
      await source.client.run([{ type: 'navigate', url: `${site.url}${path}` }]);
      assert.equal(await titleOnce(source, settled), '"made"');
    }
    const response = await post(source, '/session/export', { origins: [site.url] });
    assert.equal(response.status, 200);
    bundle = sessionBundleSchema.parse(await response.json());
    const idb = bundle.origins[0]?.indexedDB;
    assert.ok(idb);
    assert.deepEqual(
      idb.skipped.sort((a, b) => a.database.localeCompare(b.database)),
      [
        { database: 'big', reason: 'too-many-records', count: 5001 },
        { database: 'shop', store: 'events', reason: 'blob', count: 1 },
      ],
    );
    assert.deepEqual(
      idb.databases.map((database) => [database.name, database.version]),
      [['shop', 3]],
    );
    const [carts, events] = idb.databases[0]?.stores ?? [];
    assert.deepEqual(carts?.keyPath, ['user', 'id']);
    assert.equal(carts?.records.length, 2);
    assert.ok(
      carts?.records.every((record) => !('key' in record)),
      'in-line keys are not repeated',
    );
    assert.deepEqual(
      carts?.indexes.map((index) => index.name),
      ['byRef', 'bySku', 'byUser'],
    );
    assert.equal(events?.autoIncrement, true);
    assert.deepEqual(
      events?.records.map((record) => record.key),
      [1, 2],
    );
    assert.match((await source.client.state()).url, /\/big$/, 'the agent page did not move');
  });

  it("imports into a fresh browser whose page's own first script reads it all", async () => {
    const seen = site.requests.length;
    const response = await post(fresh, '/session/import', bundle);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), {
      cookies: 0,
      origins: 1,
      indexedDb: { databases: 1, records: 4 },
    });
    assert.equal(site.requests.length, seen, 'importing sent no request to the site');
    assert.equal((await fresh.client.state()).url, 'about:blank', 'the agent page did not move');
    await fresh.client.run([{ type: 'navigate', url: `${site.url}/read` }]);
    const report = JSON.parse(await titleOnce(fresh, settled));
    assert.deepEqual(report, {
      databases: [['shop', 3]],
      version: 3,
      stores: ['carts', 'events'],
      keyPath: ['user', 'id'],
      indexes: [
        ['byRef', 'ref', true, false],
        ['bySku', 'skus', false, true],
        ['byUser', 'user', false, false],
      ],
      autoIncrement: true,
      at: '2026-01-02T03:04:05.006Z',
      bytes: [0, 1, 254, 255],
      view: [1.5, -2],
      data: [9, 8],
      prefs: ['dark', null],
      tags: ['x', 'y'],
      odd: [true, null, null, true, 6, true, '10'],
      re: ['a+b', 'gi'],
      tagged: { $t: 'not a tag', v: 1 },
      byUser: ['r-2'],
      bySku: [
        ['u1', 7],
        ['u2', 1],
      ],
      eventKeys: [1, 2],
      next: 3,
      duplicate: 'ConstraintError',
    });
    assert.deepEqual(
      site.requests.slice(seen).filter((path) => path !== '/favicon.ico'),
      ['/read'],
      'only the page itself was requested',
    );
  });

  it("writes nothing from a document that is not its own (a service worker's page)", async () => {
    const worker = await startStaticSite({
      '/install': INSTALL_WORKER_PAGE,
      '/sw.js': { body: SERVICE_WORKER, contentType: 'application/javascript' },
    });
    try {
      await source.client.run([{ type: 'navigate', url: `${worker.url}/install` }]);
      assert.equal(await titleOnce(source, (title) => title !== 'installing'), '"installed"');
      const database = bundle.origins[0]?.indexedDB?.databases[0];
      assert.ok(database);
      const response = await post(source, '/session/import', {
        cookies: [],
        origins: [
          {
            origin: worker.url,
            localStorage: [],
            indexedDB: { databases: [database], skipped: [] },
          },
        ],
      });
      assert.equal(response.status, 500);
      const body = (await response.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'ACTION_FAILED');
      assert.match(body.error.message, /did not load our document/);
    } finally {
      await worker.close();
    }
  });

  it('replaces a database of the same name that the browser holds already', async () => {
    const before = sessionBundleSchema.parse(
      await (await post(source, '/session/export', { origins: [site.url] })).json(),
    );
    assert.equal(before.origins[0]?.indexedDB?.skipped.length, 2, 'the Blob record is there');
    const response = await post(source, '/session/import', bundle);
    assert.equal(response.status, 200);
    const after = sessionBundleSchema.parse(
      await (await post(source, '/session/export', { origins: [site.url] })).json(),
    );
    assert.deepEqual(
      after.origins[0]?.indexedDB?.databases,
      bundle.origins[0]?.indexedDB?.databases,
    );
    assert.deepEqual(
      after.origins[0]?.indexedDB?.skipped.map((skip) => [skip.database, skip.reason]),
      [['big', 'too-many-records']],
      'the replaced shop no longer holds the Blob record; big was left alone',
    );
    const [shop] = bundle.origins[0]?.indexedDB?.databases ?? [];
    assert.ok(shop);
    const older = {
      cookies: [],
      origins: [
        {
          origin: site.url,
          localStorage: [],
          indexedDB: { databases: [{ ...shop, version: 1 }], skipped: [] },
        },
      ],
    };
    assert.equal((await post(source, '/session/import', older)).status, 200);
    const downgraded = sessionBundleSchema.parse(
      await (await post(source, '/session/export', { origins: [site.url] })).json(),
    );
    assert.deepEqual(
      downgraded.origins[0]?.indexedDB?.databases.map((database) => database.version),
      [1],
      'a lower version replaces a higher one',
    );
  });

  it('refuses bundles over the IndexedDB limits or with malformed values', async () => {
    const withDatabases = (databases: unknown[]) => ({
      cookies: [],
      origins: [{ origin: site.url, localStorage: [], indexedDB: { databases, skipped: [] } }],
    });
    const store = (records: unknown[], keyPath: string | null = null) => ({
      name: 's',
      keyPath,
      autoIncrement: false,
      indexes: [],
      records,
    });
    const database = (records: unknown[], name = 'd', keyPath: string | null = null) => ({
      name,
      version: 1,
      stores: [store(records, keyPath)],
    });
    const manyRecords = Array.from({ length: SESSION_LIMITS.indexedDbRecords + 1 }, (_, i) => ({
      key: i,
      value: 1,
    }));
    const bigValue = [{ key: 1, value: 'x'.repeat(SESSION_LIMITS.indexedDbBytes) }];
    const cases: [string, unknown, number][] = [
      ['too many records', withDatabases([database(manyRecords)]), 413],
      ['too many bytes', withDatabases([database(bigValue)]), 413],
      [
        'too many databases',
        withDatabases(Array.from({ length: 11 }, (_, i) => database([], `d${i}`))),
        400,
      ],
      ['unknown tag', withDatabases([database([{ key: 1, value: { $t: 'blob', v: '' } }])]), 400],
      ['missing out-of-line key', withDatabases([database([{ value: 1 }])]), 400],
      ['key with a key path', withDatabases([database([{ key: 1, value: {} }], 'd', 'id')]), 400],
      ['bad version', withDatabases([{ ...database([]), version: 0 }]), 400],
    ];
    for (const [what, body, status] of cases)
      assert.equal((await post(fresh, '/session/import', body)).status, status, what);
  });
});
