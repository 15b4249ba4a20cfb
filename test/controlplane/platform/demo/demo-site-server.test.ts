import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  createDemoSiteApp,
  demoProducts,
  demoSessionCookie,
  demoTask,
} from '../../../../controlplane/src/platform/demo/demo-site-server.js';
import { demoSiteDirectory } from '../../../../controlplane/src/platform/demo/demo-templates.js';
import { startDemoSiteFixture } from '../../../support/demo-site-fixture.js';

const app = createDemoSiteApp({ generateSessionId: () => 'session-1' });
const cookie = `${demoSessionCookie}=session-1`;

async function signIn(username: string, password: string): Promise<Response> {
  return app.request('/login', {
    method: 'POST',
    body: new URLSearchParams({ username, password }),
  });
}

async function page(path: string): Promise<{ status: number; html: string }> {
  const response = await app.request(path, { headers: { cookie } });
  return { status: response.status, html: await response.text() };
}

describe('demo site', () => {
  it('resolves its templates relative to the module (../../demo-site)', () => {
    assert.equal(
      fileURLToPath(demoSiteDirectory).replace(/\/$/, '').split('/').slice(-2).join('/'),
      'controlplane/demo-site',
    );
  });

  it('serves a labelled sign-in form that shows the demo credentials', async () => {
    const response = await app.request('/');
    const html = await response.text();
    assert.equal(response.status, 200);
    assert.match(html, /<label for="username">Username<\/label>/);
    assert.match(html, /<input id="password" name="password" type="password"/);
    assert.match(html, /<button type="submit">Sign in<\/button>/);
    assert.match(html, /username <code>demo<\/code>, password <code>clawdie<\/code>/);
    assert.match(html, /<h1 id="login-heading">Sign in<\/h1>/);
  });

  it('loads no external resources and forbids them by CSP', async () => {
    const response = await app.request('/');
    const html = await response.text();
    assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//);
    assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'none'/);
  });

  it('rejects a wrong password with 401, an error message and no session', async () => {
    const response = await signIn('demo', 'wrong');
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('set-cookie'), null);
    assert.match(await response.text(), /role="alert">Wrong username or password/);
    const empty = await signIn('', '');
    assert.equal(empty.status, 401);
    assert.match(await empty.text(), /Enter your username and password/);
  });

  it('signs in with demo / clawdie and redirects to the search page', async () => {
    const response = await signIn('demo', 'clawdie');
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), '/search');
    assert.match(
      response.headers.get('set-cookie') ?? '',
      /^demo_session=session-1; Path=\/; HttpOnly; SameSite=Lax/,
    );
    const search = await page('/search');
    assert.equal(search.status, 200);
    assert.match(search.html, /<label for="q">Search products<\/label>/);
    assert.match(search.html, /<form class="search-form" method="get" action="\/results">/);
    assert.match(search.html, /<button type="submit">Search<\/button>/);
    assert.equal((await page('/')).status, 303, 'a signed-in visitor skips the sign-in page');
  });

  it('redirects every shop page to sign-in without a session', async () => {
    for (const path of ['/search', '/results?q=lamp', '/item/aurora-desk-lamp']) {
      const response = await app.request(path);
      assert.equal(response.status, 303, path);
      assert.equal(response.headers.get('location'), '/', path);
    }
  });

  it('filters the catalogue by every word of the query, case-insensitively', async () => {
    await signIn('demo', 'clawdie');
    const lamps = await page('/results?q=LAMP');
    const links = [...lamps.html.matchAll(/<a href="\/item\/([\w-]+)">/g)].map((match) => match[1]);
    assert.deepEqual(links, [
      'aurora-desk-lamp',
      'nimbus-floor-lamp',
      'lumen-clip-lamp',
      'ember-bedside-lamp',
    ]);
    assert.match(lamps.html, /Results for “LAMP”/);
    assert.match(lamps.html, /4 products found\./);
    assert.match(lamps.html, /value="LAMP"/, 'the query stays in the search box');
    const one = await page('/results?q=floor%20lamp');
    assert.match(one.html, /1 product found\./);
    assert.match(one.html, /Nimbus Floor Lamp/);
    const none = await page('/results?q=submarine');
    assert.match(none.html, /No products match your search/);
    assert.equal((await page('/results?q=')).html.match(/<li>/g)?.length, demoProducts.length);
  });

  it('escapes the query wherever it is shown', async () => {
    await signIn('demo', 'clawdie');
    const { html } = await page('/results?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E%22');
    assert.doesNotMatch(html, /<script>/);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;&quot;/);
  });

  it('shows a distinct, clearly labelled order reference on every item page', async () => {
    await signIn('demo', 'clawdie');
    const references = new Set<string>();
    for (const product of demoProducts) {
      const { status, html } = await page(`/item/${product.id}`);
      assert.equal(status, 200);
      assert.match(html, new RegExp(`<h1 id="item-heading">${product.name}</h1>`));
      assert.match(
        html,
        new RegExp(`Order reference: <strong id="order-reference">${product.reference}</strong>`),
      );
      references.add(product.reference);
    }
    assert.equal(references.size, demoProducts.length);
    assert.equal((await page('/item/no-such-thing')).status, 404);
  });

  it('signs out', async () => {
    await signIn('demo', 'clawdie');
    const response = await app.request('/logout', { method: 'POST', headers: { cookie } });
    assert.equal(response.status, 303);
    assert.equal((await page('/search')).status, 303);
  });

  it('defines a canonical task that needs the right one of several results', () => {
    const target = demoProducts.find((product) => product.name === demoTask.productName);
    assert.ok(target);
    assert.equal(demoTask.expectedValue, target.reference);
    assert.equal(demoTask.expectedValue, 'ORD-4821-KX');
    assert.equal(
      demoTask.instruction,
      'Log in to the demo shop with username demo and password clawdie, search for "lamp", open "Aurora Desk Lamp" and report its order reference.',
    );
    const matches = demoProducts.filter((product) =>
      product.name.toLowerCase().includes(demoTask.searchTerm),
    );
    assert.ok(matches.length >= 3);
  });

  it('walks the flow over a real socket', async (t) => {
    const site = await startDemoSiteFixture(t);
    assert.match(site.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const wrong = await site.request('/login', { form: { username: 'demo', password: 'nope' } });
    assert.equal(wrong.status, 401);
    const session = await site.signIn();
    const results = await site.request(`/results?q=${demoTask.searchTerm}`, { cookie: session });
    assert.match(
      await results.text(),
      new RegExp(`<a href="/item/${demoTask.productId}">${demoTask.productName}</a>`),
    );
    const item = await site.request(`/item/${demoTask.productId}`, { cookie: session });
    assert.match(await item.text(), new RegExp(demoTask.expectedValue));
  });
});
