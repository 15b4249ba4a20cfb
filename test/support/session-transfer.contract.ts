import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { SessionBundle } from '@clawdie/kit/jail-api';
import type { SessionTransfer } from '../../controlplane/src/browser/operator/jail-session-client.js';

/**
 * The SessionTransfer contract for any implementation: `create()` gives a browser without login
 * state for the origins used here (127.0.0.1:9 and 127.0.0.2:9, never contacted).
 */
export function sessionTransferContract(create: () => Promise<SessionTransfer>): void {
  const origin = 'http://127.0.0.1:9';
  const other = 'http://127.0.0.2:9';
  const database = {
    name: 'app',
    version: 3,
    stores: [
      {
        name: 'kv',
        keyPath: null,
        autoIncrement: false,
        indexes: [],
        records: [{ key: 'token', value: { $t: 'date', v: 5 } }],
      },
    ],
  };
  const bundle: SessionBundle = {
    cookies: [
      {
        name: 'sid',
        value: 'v-contract',
        domain: '127.0.0.1',
        path: '/',
        httpOnly: true,
        secure: false,
        sameSite: 'Lax',
      },
    ],
    origins: [
      {
        origin,
        localStorage: [{ key: 'k', value: 'v' }],
        indexedDB: { databases: [database], skipped: [] },
      },
    ],
  };

  it('exports nothing for an origin without state, one entry per origin asked', async () => {
    const transfer = await create();
    assert.deepEqual(await transfer.exportSession([other]), {
      cookies: [],
      origins: [{ origin: other, localStorage: [], indexedDB: { databases: [], skipped: [] } }],
    });
  });

  it('imports a bundle, answering counts only', async () => {
    const transfer = await create();
    assert.deepEqual(await transfer.importSession(bundle), {
      cookies: 1,
      origins: 1,
      indexedDb: { databases: 1, records: 1 },
    });
  });

  it('exports the imported cookies and IndexedDB for their origin and not for another', async () => {
    const transfer = await create();
    await transfer.importSession(bundle);
    const mine = await transfer.exportSession([origin]);
    assert.deepEqual(
      mine.cookies.map((cookie) => [cookie.name, cookie.value, cookie.httpOnly]),
      [['sid', 'v-contract', true]],
    );
    assert.deepEqual(mine.origins[0]?.indexedDB, { databases: [database], skipped: [] });
    const theirs = await transfer.exportSession([other]);
    assert.deepEqual(theirs.cookies, []);
    assert.deepEqual(theirs.origins[0]?.indexedDB?.databases, []);
  });
}
