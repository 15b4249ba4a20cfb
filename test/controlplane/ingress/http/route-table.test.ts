// Issue 13, point 3: the route table is the only source of the HTTP surface. Every route mounted on
// the app (`app.routes`) must belong to a table entry, carry a scope (or `public`, or the
// dashboard's own login), be documented in /openapi.json with that scope, and enforce it.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Hono } from 'hono';
import { isScope, type Scope } from '../../../../controlplane/src/governance/auth/scopes.js';
import { routeTable } from '../../../../controlplane/src/ingress/http/route-table.js';
import type { TableEntry } from '../../../../controlplane/src/ingress/http/route-types.js';
import { createFullApp } from './support/full-app.js';
import { auditRoutes } from './support/route-audit.js';

const { app, build, auth, tasks, close } = await createFullApp();
const document = async (target: Hono = app) =>
  (await (await target.request('/openapi.json')).json()) as Parameters<typeof auditRoutes>[2];
after(close);

/** A token with every scope but `needed` (and never `admin`, which implies them all). */
const otherScopes = (needed: Scope): Scope[] =>
  (['tasks:run', 'tasks:read', 'operate'] as const).filter((scope) => scope !== needed);
const concrete = (path: string) => path.replace(/:[A-Za-z_]+/g, 'x');
const methodsOf = (entry: TableEntry) =>
  entry.kind === 'mount' ? entry.routes.map((route) => route.method) : [entry.method];

describe('route table', () => {
  it('every route mounted on the app is in the table, has a scope, and is documented with it', async () => {
    const problems = auditRoutes(app, routeTable, await document());
    assert.deepEqual(problems, []);
    const mounted = app.routes.map((route) => route.path);
    for (const path of [
      '/v1/tasks/:id/abort',
      '/v1/waits/:id',
      '/v1/approvals/:id',
      '/mcp',
      '/health',
    ])
      assert.ok(mounted.includes(path), `${path} is mounted`);
    assert.ok(
      mounted.some((path) => path.startsWith('/dashboard/')),
      'the dashboard is mounted',
    );
  });

  it('reports a route mounted outside the table, one without a scope, and one left undocumented', async () => {
    const tampered = build();
    tampered.get('/v1/extra', (c) => c.text('not in the table'));
    const doc = await document(tampered);
    assert.ok(
      auditRoutes(tampered, routeTable, doc).includes(
        'GET /v1/extra: mounted but not in the route table',
      ),
    );
    const unscoped = routeTable.map((entry) =>
      entry.path === '/v1/waits'
        ? ({ ...entry, access: undefined } as unknown as TableEntry)
        : entry,
    );
    assert.ok(
      auditRoutes(app, unscoped, doc).some((problem) =>
        problem.startsWith('POST /v1/waits: no scope'),
      ),
    );
    const { '/v1/waits': _dropped, ...paths } = doc.paths;
    assert.ok(
      auditRoutes(app, routeTable, { paths }).includes(
        'POST /v1/waits: POST /v1/waits missing from /openapi.json',
      ),
    );
  });

  it('every scoped entry answers 401 without a token and 403 with a token lacking its scope', async () => {
    const lacking = new Map<Scope, string>();
    let checked = 0;
    for (const entry of routeTable) {
      if (!isScope(entry.access)) continue;
      const scope = entry.access;
      if (!lacking.has(scope)) lacking.set(scope, await auth.token(otherScopes(scope)));
      const granted = await auth.token([scope]);
      for (const method of methodsOf(entry)) {
        const name = `${method} ${entry.path}`;
        const send = (token?: string) =>
          app.request(concrete(entry.path), {
            method,
            headers: {
              'content-type': 'application/json',
              ...(token ? { authorization: `Bearer ${token}` } : {}),
            },
            ...(method === 'GET' ? {} : { body: '{}' }),
          });
        assert.equal((await send()).status, 401, `${name} without a token`);
        const refused = await send(lacking.get(scope));
        assert.equal(refused.status, 403, `${name} without ${scope}`);
        assert.match(refused.headers.get('www-authenticate') ?? '', new RegExp(`scope="${scope}"`));
        const allowed = (await send(granted)).status;
        assert.ok(allowed !== 401 && allowed !== 403, `${name} with ${scope}: ${allowed}`);
        checked++;
      }
    }
    assert.ok(checked >= 15, `checked ${checked} scoped operations`);
  });

  it('public entries need no token; the dashboard needs its own session, not a bearer', async () => {
    for (const entry of routeTable.filter((e) => e.access === 'public')) {
      assert.equal((await app.request(concrete(entry.path))).status, 200, entry.path);
    }
    const admin = await auth.token(['admin']);
    const page = await app.request('/dashboard', {
      headers: { accept: 'text/html', authorization: `Bearer ${admin}` },
    });
    assert.equal(page.status, 303);
    assert.match(page.headers.get('location') ?? '', /^\/dashboard\/login/);
  });

  it('an unknown /v1 path needs the admin scope before it answers 404', async () => {
    assert.equal((await app.request('/v1/nope')).status, 401);
    const reader = await auth.token(['tasks:read', 'tasks:run']);
    const headers = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
    assert.equal((await app.request('/v1/nope', headers(reader))).status, 403);
    const admin = await auth.token(['admin']);
    assert.equal((await app.request('/v1/nope', headers(admin))).status, 404);
  });

  it('every JSON answer of a GET route matches the response schema its entry declares', async () => {
    const admin = { authorization: `Bearer ${await auth.token(['admin'])}` };
    const started = await app.request('/v1/tasks', {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ instruction: 'route table' }),
    });
    const { trace_id: id } = (await started.json()) as { trace_id: string };
    for (let i = 0; i < 200 && tasks.isActive(id); i++) await new Promise((r) => setTimeout(r, 10));
    let checked = 0;
    for (const entry of routeTable) {
      if (entry.kind !== 'route' || entry.method !== 'GET') continue;
      const schema = entry.responses['200']?.schema;
      if (!schema) continue;
      const path = entry.path.replace(':id', id).replace(':index', '1');
      const response = await app.request(path, { headers: admin });
      if (entry.path.startsWith('/v1/approvals/')) continue; // no approval with a task's id
      assert.equal(response.status, 200, path);
      const parsed = schema.safeParse(await response.json());
      assert.ok(parsed.success, `${path}: ${parsed.error?.message}`);
      checked++;
    }
    assert.ok(checked >= 5, `checked ${checked} documented answers`);
  });
});
