// Issue 13: `/v1/waits` (docs/waits.md) was served but missing from /openapi.json. It is documented
// now, with the scope the server enforces on it.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createFullApp } from './support/full-app.js';

const { app, auth, close } = await createFullApp();
after(close);

describe('/v1/waits in the OpenAPI document', () => {
  it('documents start, read and cancel with the admin scope the server enforces', async () => {
    const doc = (await (await app.request('/openapi.json')).json()) as any;
    const operations = [
      ['post', '/v1/waits'],
      ['get', '/v1/waits/{id}'],
      ['delete', '/v1/waits/{id}'],
    ] as const;
    for (const [method, path] of operations) {
      const operation = doc.paths[path]?.[method];
      assert.ok(operation, `${method} ${path} is documented`);
      assert.equal(operation['x-required-scope'], 'admin', `${method} ${path}`);
      assert.deepEqual(operation.security, [{ bearer: [] }]);
      assert.ok(operation.responses['401'] && operation.responses['403']);
    }
    const start = doc.paths['/v1/waits'].post;
    assert.equal(
      start.requestBody.content['application/json'].schema.$ref,
      '#/components/schemas/WaitInput',
    );
    const input = doc.components.schemas.WaitInput;
    assert.deepEqual(Object.keys(input.properties).sort(), [
      'block',
      'conditions',
      'stall_polls',
      'task_id',
      'timeout_ms',
    ]);
    // What the document says is what the server does: a token without admin gets 403.
    const runner = await auth.token(['tasks:run', 'tasks:read']);
    const refused = await app.request('/v1/waits', {
      method: 'POST',
      headers: { authorization: `Bearer ${runner}`, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(refused.status, 403);
    assert.match(refused.headers.get('www-authenticate') ?? '', /scope="admin"/);
  });
});
