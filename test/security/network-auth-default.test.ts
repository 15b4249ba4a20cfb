// Issue 12, found item 1, the second half: a page that reaches the controlplane must not be able to
// start a task. API auth is on by default (`npm start` with no configuration): the one-off admin
// token is the only bearer until a JWKS file exists; off needs an explicit CLAWDIE_AUTH_REQUIRED=false.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createReplayModel } from '../../controlplane/src/agent/model/replay-model.js';
import { loadConfig } from '../../controlplane/src/config.js';
import { startupApiAuth } from '../../controlplane/src/governance/auth/api-auth.js';
import { createTestControlplane, type TestControlplane } from '../support/controlplane.js';

const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-auth-default-'));
const opened: TestControlplane[] = [];
after(async () => {
  for (const controlplane of opened) await controlplane.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const adminToken = 'one-off-admin-token-0123456789';

/** `npm start`'s composition root from `env` (auth as configured), its one-off token `adminToken`. */
async function appFrom(env: Record<string, string>) {
  const controlplane = await createTestControlplane({
    role: 'server',
    model: createReplayModel(["Action: finished(content='ok')"]),
    env: { CLAWDIE_AUTH_REQUIRED: 'true', CLAWDIE_MAX_STEPS: '3', ...env },
    adapters: { newAdminToken: () => adminToken },
  });
  opened.push(controlplane);
  return controlplane;
}

/** The drill's request: a page's text/plain POST, which needs no CORS preflight. */
const pagePost = (headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'text/plain', ...headers },
  body: '{"instruction":"x"}',
});

describe('API auth is on by default', () => {
  it('the app built from default config answers 401 to POST /v1/tasks without a token', async () => {
    const { app, repository } = await appFrom({});
    const response = await app.request('/v1/tasks', pagePost());
    assert.equal(response.status, 401);
    assert.equal((await repository.listTasks({ limit: 10, offset: 0 })).total, 0);
    const wrong = await app.request(
      '/v1/tasks',
      pagePost({ authorization: 'Bearer not-the-token-at-all' }),
    );
    assert.equal(wrong.status, 401);
  });

  it('the admin token printed at start is accepted', async () => {
    const { app, auth } = await appFrom({});
    assert.equal(auth?.generatedAdminToken, adminToken);
    const response = await app.request(
      '/v1/tasks',
      pagePost({ authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }),
    );
    assert.equal(response.status, 202, await response.text());
  });

  it('is off only with an explicit CLAWDIE_AUTH_REQUIRED=false', async () => {
    assert.equal(loadConfig({}).auth.required, true);
    const config = loadConfig({ CLAWDIE_DATA_DIR: dataDir, CLAWDIE_AUTH_REQUIRED: 'false' });
    assert.equal(await startupApiAuth(config.auth, adminToken), null);
  });
});
