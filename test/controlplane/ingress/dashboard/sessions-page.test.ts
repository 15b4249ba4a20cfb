import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  cookieValue,
  note,
  origin,
  principalOf,
  sessionFixture,
} from '../../browser/sessions/session-fixture.js';
import { createDashboardPagesFixture } from './dashboard-fixture.js';

const sessions = sessionFixture();
const fixture = createDashboardPagesFixture({ dashboard: { sessionProfiles: sessions.service } });
after(() => fixture.close());

describe('dashboard: saved sessions page', () => {
  it('lists every profile with origins, times and state, never a value, and revokes one', async () => {
    await sessions.service.saveSessionFromTask(
      { taskId: 't-acme', name: 'shop', origins: [origin] },
      principalOf('acme'),
    );
    const cookie = await fixture.login();
    const page = await fixture.app.request('/dashboard/sessions', { headers: { cookie } });
    assert.equal(page.status, 200);
    const text = await page.text();
    assert.match(text, /data-session="acme\/shop"/);
    assert.match(text, new RegExp(origin.replaceAll('.', '\\.')));
    assert.match(text, /Saved sessions<\/a>/, 'the section is in the navigation');
    assert.ok(!text.includes(cookieValue) && !text.includes(note));

    const revoke = await fixture.app.request('/dashboard/sessions/acme/shop/revoke', {
      method: 'POST',
      headers: { cookie },
    });
    assert.equal(revoke.status, 303);
    assert.notEqual((await sessions.store.meta('acme', 'shop'))?.revokedAt, null);
    const again = await fixture.app.request('/dashboard/sessions/acme/shop/revoke', {
      method: 'POST',
      headers: { cookie },
    });
    assert.equal(again.headers.get('location'), '/dashboard/sessions?error=unknown');
    const after = await (
      await fixture.app.request('/dashboard/sessions', { headers: { cookie } })
    ).text();
    assert.match(after, /s-revoked|revoked/);
  });

  it('needs the admin session, and refuses a cross-site revoke', async () => {
    const anonymous = await fixture.app.request('/dashboard/sessions');
    assert.notEqual(anonymous.status, 200);
    assert.ok(!(await anonymous.text()).includes('data-session'));
    await sessions.service.saveSessionFromTask(
      { taskId: 't-acme', name: 'other', origins: [origin] },
      principalOf('acme'),
    );
    const cookie = await fixture.login();
    const crossSite = await fixture.app.request('/dashboard/sessions/acme/other/revoke', {
      method: 'POST',
      headers: { cookie, 'sec-fetch-site': 'cross-site' },
    });
    assert.notEqual(crossSite.status, 303);
    assert.equal((await sessions.store.meta('acme', 'other'))?.revokedAt, null);
  });
});
