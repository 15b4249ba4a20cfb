import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  createStaticAdminVerifier,
  safeNext,
} from '../../../../controlplane/src/ingress/dashboard/admin-auth.js';
import { ADMIN_TOKEN, createDashboardFixture } from './dashboard-fixture.js';

const fixture = await createDashboardFixture();
after(() => fixture.close());
const html = { accept: 'text/html' };

describe('dashboard admin login', () => {
  it('redirects a page request without a session to the login page, keeping the target', async () => {
    const response = await fixture.app.request('/dashboard/tasks/abc?x=1', { headers: html });
    assert.equal(response.status, 303);
    assert.equal(
      response.headers.get('location'),
      `/dashboard/login?next=${encodeURIComponent('/dashboard/tasks/abc?x=1')}`,
    );
  });

  it('answers 401 to non-page requests and writes without a session', async () => {
    for (const [method, path] of [
      ['GET', '/dashboard/tasks/x/screencast'],
      ['GET', '/dashboard/tasks/x/events'],
      ['GET', '/dashboard/tasks/x/export'],
      ['POST', '/dashboard/tasks/x/abort'],
      ['POST', '/dashboard/tasks/x/pause'],
    ] as const) {
      const response = await fixture.app.request(path, { method });
      assert.equal(response.status, 401, `${method} ${path}`);
    }
  });

  it('serves the login form and the stylesheet without a session, with a strict CSP', async () => {
    const login = await fixture.app.request('/dashboard/login');
    assert.equal(login.status, 200);
    assert.match(await login.text(), /<input id="token" name="token" type="password"/);
    assert.match(login.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const css = await fixture.app.request('/dashboard/assets/dashboard.css');
    assert.equal(css.headers.get('content-type'), 'text/css; charset=utf-8');
  });

  it('answers a wrong token with the login page again (200, no cookie); pages without a session stay 401 to non-browsers', async () => {
    const response = await fixture.app.request('/dashboard/login', {
      method: 'POST',
      body: new URLSearchParams({ token: 'wrong-token-wrong-token' }),
    });
    assert.equal(response.status, 200, 'the login page is a page, not an API refusal');
    assert.equal((await fixture.app.request('/dashboard/tasks/x/events')).status, 401);
    assert.equal(response.headers.get('set-cookie'), null);
    assert.match(await response.text(), /not an admin token/);
  });

  it('sets an HttpOnly SameSite=Strict session cookie for the admin token and redirects to next', async () => {
    const response = await fixture.app.request('/dashboard/login', {
      method: 'POST',
      body: new URLSearchParams({ token: ADMIN_TOKEN, next: '/dashboard/settings' }),
    });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), '/dashboard/settings');
    const cookie = response.headers.get('set-cookie') ?? '';
    assert.match(cookie, /^clawdie_admin=[\w-]{40,};/);
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Strict/);
    assert.match(cookie, /Path=\/dashboard/);
    assert.ok(!cookie.includes(ADMIN_TOKEN), 'the cookie never carries the token');
    const page = await fixture.app.request('/dashboard', {
      headers: { cookie: cookie.split(';')[0] ?? '' },
    });
    assert.equal(page.status, 200);
  });

  it('ends the session on logout', async () => {
    const cookie = await fixture.login();
    const out = await fixture.app.request('/dashboard/logout', {
      method: 'POST',
      headers: { cookie },
    });
    assert.equal(out.status, 303);
    const after = await fixture.app.request('/dashboard', { headers: { cookie, ...html } });
    assert.equal(after.status, 303);
  });

  it('refuses a cross-site write even with a session cookie', async () => {
    const cookie = await fixture.login();
    const response = await fixture.app.request('/dashboard/tasks/x/abort', {
      method: 'POST',
      headers: { cookie, 'sec-fetch-site': 'cross-site' },
    });
    assert.equal(response.status, 403);
  });

  it('only redirects to dashboard paths after login', () => {
    assert.equal(safeNext('/dashboard/tasks/1'), '/dashboard/tasks/1');
    assert.equal(safeNext('https://evil.example/'), '/dashboard');
    assert.equal(safeNext('//evil.example/dashboard'), '/dashboard');
    assert.equal(safeNext('/dashboardx'), '/dashboard');
    assert.equal(safeNext(undefined), '/dashboard');
  });

  it('rejects short static admin tokens at creation', () => {
    assert.throws(() => createStaticAdminVerifier('short'), /16 characters/);
    const verify = createStaticAdminVerifier(ADMIN_TOKEN);
    assert.equal(verify(ADMIN_TOKEN), true);
    assert.equal(verify(`${ADMIN_TOKEN}x`), false);
  });
});
