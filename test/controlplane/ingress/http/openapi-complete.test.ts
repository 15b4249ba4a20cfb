// Issue 25, point 3: the API document is whole. Every route the real app answers (`app.routes`) is
// in /openapi.json with its method, every documented operation is answered, and the document
// passes both @apidevtools/swagger-parser and @readme/openapi-parser (which refuses a templated
// path whose parameters are not declared — `/dashboard/{page}` and `/takeover/{task}/{page}` were).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { validate } from '@readme/openapi-parser';
import { openApiPath } from '../../../../controlplane/src/ingress/http/route-types.js';
import { createFullApp } from './support/full-app.js';
import { isMiddleware } from './support/route-audit.js';

type Operation = {
  parameters?: { name: string; in: string; required?: boolean }[];
  responses: Record<string, { content?: Record<string, unknown> }>;
};
type Document = { paths: Record<string, Record<string, Operation>> };

const { app, close } = await createFullApp();
const document = (await (await app.request('/openapi.json')).json()) as Document;
after(close);

/**
 * The routes the app answers, as `METHOD /path/{param}`. Left out, and only these: middleware
 * (`app.use('…*')`: the body limit, the client-address resolver, a mount's scope guard, the
 * dashboard's session check), which answers no request on its own. HEAD is answered by Hono for
 * every GET and is never in `app.routes`; there are no OPTIONS routes. An `ALL` route (the MCP
 * endpoint) is kept as `ALL`: it is documented by the methods it serves.
 */
function servedRoutes(): Set<string> {
  return new Set(
    app.routes
      .filter((route) => !isMiddleware(route))
      .map((route) => `${route.method} ${openApiPath(route.path)}`),
  );
}

const documentedOperations = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
  );

describe('/openapi.json is whole', () => {
  it('documents every route the app answers, and answers every documented operation', () => {
    const served = servedRoutes();
    const documented = new Set(documentedOperations(document));
    const missing = [...served].filter((route) => {
      const [method, path = ''] = route.split(' ');
      if (method !== 'ALL') return !documented.has(route);
      return Object.keys(document.paths[path] ?? {}).length === 0;
    });
    assert.deepEqual(missing, [], 'served but not documented');
    const unserved = [...documented].filter((operation) => {
      const path = operation.slice(operation.indexOf(' ') + 1);
      return !served.has(operation) && !served.has(`ALL ${path}`);
    });
    assert.deepEqual(unserved, [], 'documented but not served');
    for (const route of [
      'GET /dashboard/tasks/{id}',
      'GET /dashboard/tasks/{id}/live',
      'GET /dashboard/tasks/{id}/replay',
      'GET /dashboard/tasks/{id}/export',
      'GET /dashboard/tasks/{id}/events',
      'GET /dashboard/tasks/{id}/steps/{index}/screenshot.jpg',
      'GET /takeover/{id}',
      'POST /takeover/{id}/hand-back',
    ])
      assert.ok(documented.has(route), `${route} is documented`);
    assert.ok(served.size >= 60, `${served.size} routes served`);
  });

  it('passes @apidevtools/swagger-parser and @readme/openapi-parser', async () => {
    // Both dereference in place: each gets its own copy.
    await SwaggerParser.validate(structuredClone(document) as never);
    const result = await validate(structuredClone(document) as never);
    assert.deepEqual(result.valid ? [] : result.errors, []);
    assert.equal(result.valid, true);
  });

  it('declares every templated path parameter, required and in: path', () => {
    let checked = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name);
      for (const [method, operation] of Object.entries(operations)) {
        const declared = (operation.parameters ?? []).filter((p) => p.in === 'path');
        assert.deepEqual(
          declared.map((p) => p.name).sort(),
          [...names].sort(),
          `${method} ${path}`,
        );
        assert.ok(
          declared.every((p) => p.required === true),
          `${method} ${path}: path parameters are required`,
        );
        checked += names.length;
      }
    }
    assert.ok(checked >= 40, `checked ${checked} path parameters`);
  });

  it('describes pages as text/html and event streams as text/event-stream', () => {
    const content = (method: string, path: string) =>
      Object.keys(document.paths[path]?.[method]?.responses['200']?.content ?? {});
    for (const path of [
      '/dashboard',
      '/dashboard/tasks/{id}',
      '/dashboard/tasks/{id}/live',
      '/dashboard/tasks/{id}/replay',
      '/dashboard/tasks/{id}/export',
      '/dashboard/login',
      '/takeover/{id}',
      '/takeover/{id}/open',
    ])
      assert.deepEqual(content('get', path), ['text/html'], path);
    for (const path of ['/v1/tasks/{id}/events', '/dashboard/tasks/{id}/events', '/mcp'])
      assert.deepEqual(content('get', path), ['text/event-stream'], path);
  });
});
