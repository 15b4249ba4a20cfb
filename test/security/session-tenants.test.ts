// Saved sessions over REST: a tenant-B supervisor cannot list, save from, or revoke tenant A's
// profiles; without the operate scope nothing answers; no response carries a cookie or storage value.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createReplayModel } from '../../controlplane/src/agent/model/replay-model.js';
import { createApp } from '../../controlplane/src/ingress/http/app.js';
import { createTaskService } from '../../controlplane/src/tasks/task-service.js';
import {
  cookieValue,
  note,
  origin,
  sessionFixture,
} from '../controlplane/browser/sessions/session-fixture.js';
import { createAuthFixture } from '../controlplane/governance/auth/auth-fixture.js';
import { silentLogger } from '../support/silent-logger.js';
import { createTestTaskDeps } from '../support/test-task-deps.js';

const auth = await createAuthFixture();
const test = createTestTaskDeps({ model: createReplayModel(["Action: finished(content='ok')"]) });
const tasks = createTaskService(test.deps);
const sessions = sessionFixture();
const app = createApp({
  tasks,
  repository: test.repository,
  logger: silentLogger,
  defaultMaxSteps: 3,
  describe: () => ({ model: { name: 'replay', replay: true }, jail: { url: 'http://x' } }),
  auth: { verifier: auth.verifier },
  failures: { limit: 100_000, windowMs: 60_000 },
  sessions: sessions.service,
});
after(async () => {
  await tasks.close();
  test.close();
});

const acme = await auth.token(['operate'], 'acme');
const globex = await auth.token(['operate'], 'globex');
const reader = await auth.token(['tasks:read', 'tasks:run'], 'acme');
const admin = await auth.token(['admin'], 'root');
const call = async (token: string, method: string, path: string, body?: unknown) => {
  const response = await app.request(path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  assert.ok(!text.includes(cookieValue) && !text.includes(note), `${path} answers no value`);
  return { status: response.status, body: JSON.parse(text) as Record<string, any> };
};
const saveBody = { task_id: 't-acme', name: 'shop', origins: [origin], ttl_s: 600 };

describe('security: session profiles are tenant-scoped over REST', () => {
  it('an acme supervisor saves, lists and sees metadata only', async () => {
    const saved = await call(acme, 'POST', '/v1/sessions', saveBody);
    assert.equal(saved.status, 201, JSON.stringify(saved.body));
    assert.equal(saved.body.cookie_count, 1);
    assert.equal(saved.body.state, 'active');
    const listed = await call(acme, 'GET', '/v1/sessions');
    assert.deepEqual(
      listed.body.sessions.map((s: { name: string }) => s.name),
      ['shop'],
    );
  });

  it('a globex supervisor cannot list, save from or revoke acme profiles', async () => {
    assert.deepEqual((await call(globex, 'GET', '/v1/sessions')).body.sessions, []);
    assert.equal((await call(globex, 'POST', '/v1/sessions', saveBody)).status, 404);
    assert.equal((await call(globex, 'DELETE', '/v1/sessions/shop')).status, 404);
    assert.equal((await call(globex, 'DELETE', '/v1/sessions/shop?tenant=acme')).status, 404);
    assert.equal((await sessions.store.meta('acme', 'shop'))?.revokedAt, null);
  });

  it('a token without operate gets 403 on every session route', async () => {
    assert.equal((await call(reader, 'GET', '/v1/sessions')).status, 403);
    assert.equal((await call(reader, 'POST', '/v1/sessions', saveBody)).status, 403);
    assert.equal((await call(reader, 'DELETE', '/v1/sessions/shop')).status, 403);
  });

  it('admin sees every tenant and revokes by tenant; the owner can revoke too', async () => {
    const all = await call(admin, 'GET', '/v1/sessions');
    assert.equal(all.body.sessions[0]?.tenant, 'acme');
    const revoked = await call(admin, 'DELETE', '/v1/sessions/shop?tenant=acme');
    assert.equal(revoked.status, 200);
    assert.equal(revoked.body.state, 'revoked');
    assert.equal((await call(acme, 'DELETE', '/v1/sessions/shop')).status, 404, 'already revoked');
  });
});
