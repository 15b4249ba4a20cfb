import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createReplayModel } from '../../../../controlplane/src/agent/model/replay-model.js';
import { createApp } from '../../../../controlplane/src/ingress/http/app.js';
import { createUnavailableTaskService } from '../../../../controlplane/src/tasks/unavailable-task-service.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { createTestTaskDeps } from '../../../support/test-task-deps.js';
import { createAuthFixture } from '../auth/auth-fixture.js';
import { createApprovalsFixture, sampleRequest } from './approvals-fixture.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('approvals API (/v1/approvals, admin scope)', () => {
  it('lists pending approvals and answers them as the token subject; 401/403 for others', async (t) => {
    const auth = await createAuthFixture();
    const { approvals, audit, close } = createApprovalsFixture();
    const { repository, close: closeTasks } = createTestTaskDeps({ model: createReplayModel([]) });
    t.after(() => {
      close();
      closeTasks();
    });
    const app = createApp({
      tasks: createUnavailableTaskService(),
      repository,
      logger: silentLogger,
      defaultMaxSteps: 3,
      describe: () => ({
        model: { name: 'x', replay: false },
        jail: { url: 'http://127.0.0.1:1' },
      }),
      auth: { verifier: auth.verifier },
      audit,
      approvals,
    });
    const pending = approvals.request(sampleRequest);
    await tick();
    const admin = { authorization: `Bearer ${await auth.token(['admin'], 'ops')}` };
    const runner = { authorization: `Bearer ${await auth.token(['tasks:run', 'tasks:read'])}` };

    assert.equal((await app.request('/v1/approvals')).status, 401);
    assert.equal((await app.request('/v1/approvals', { headers: runner })).status, 403);
    const list = (await (
      await app.request('/v1/approvals?status=pending', { headers: admin })
    ).json()) as any;
    assert.equal(list.approvals.length, 1);
    const [approval] = list.approvals;
    assert.equal(approval.reason, sampleRequest.reason);
    assert.equal(approval.trace_id, 'task-1');

    const post = (headers: Record<string, string>, body: unknown) =>
      app.request(`/v1/approvals/${approval.id}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    assert.equal((await post(runner, { decision: 'approve' })).status, 403);
    assert.equal((await post(admin, { decision: 'maybe' })).status, 400);
    const answered = await post(admin, { decision: 'approve' });
    assert.equal(answered.status, 200);
    assert.equal(((await answered.json()) as any).answered_by, 'api:tenant:ops/tester');
    assert.equal((await pending).approved, true);
    assert.equal((await post(admin, { decision: 'deny' })).status, 409);
    assert.equal((await app.request('/v1/approvals/nope', { headers: admin })).status, 404);
  });
});
