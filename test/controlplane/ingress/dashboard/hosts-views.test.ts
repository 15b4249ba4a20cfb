import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hostdHosts } from '../../../../controlplane/src/ingress/dashboard/hosts-views.js';
import { hostsBody } from '../../../../controlplane/src/ingress/dashboard/settings-pages.js';

describe('hosts page with hostd', () => {
  it('shows the warm pool figure and, while it retries, its failures and last error', async () => {
    const pool = {
      target: 2,
      ready: 0,
      filling: 0,
      failures: 3,
      lastError: 'browsertask004: <start timeout>',
      lastErrorAt: new Date(0).toISOString(),
      retryAt: new Date(8000).toISOString(),
    };
    const view = await hostdHosts(
      {
        health: async () => ({
          ok: true,
          driver: 'fake',
          isolation: { level: 'full', reasons: [] },
          pool,
          clones: 0,
        }),
        listClones: async () => [],
      },
      'http://127.0.0.1:7070',
      4,
    )();
    assert.deepEqual(view.warmPool, pool);
    const page = String(await hostsBody(view, 0));
    assert.match(page, /0 ready of a target of 2\./);
    assert.match(page, /Refilling after 3 failed attempt\(s\), next at 1970-01-01T00:00:08\.000Z/);
    assert.match(page, /&lt;start timeout&gt;/, 'the error text is escaped');
  });
});
