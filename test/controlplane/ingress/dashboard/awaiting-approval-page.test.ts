import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { createReplayModel } from '../../../../controlplane/src/agent/model/replay-model.js';
import { submit } from '../../../support/submit-task.js';
import { createDashboardFixture } from './dashboard-fixture.js';

const policy = `tenant: default
domains: { allow: [shop.example], outside: needs_approval }
max_steps: 10
approvals: { timeout_s: 300 }
`;

describe('dashboard: a task waiting for an approval', () => {
  it('shows awaiting_approval, the action held back and a link to the approval, on the task and live pages', async (t) => {
    const policyDir = mkdtempSync(join(tmpdir(), 'clawdie-policy-'));
    t.after(() => rmSync(policyDir, { recursive: true, force: true }));
    writeFileSync(join(policyDir, 'default.yaml'), policy);
    const fixture = await createDashboardFixture({
      model: createReplayModel([
        "Action: navigate(url='https://elsewhere.example/')",
        "Action: finished(content='done')",
      ]),
      env: { CLAWDIE_POLICY_DIR: policyDir },
    });
    t.after(() => fixture.close());
    const cookie = await fixture.login();
    const task = await submit(fixture.tasks, {
      instruction: 'go',
      start_url: 'https://shop.example/',
    });
    let [approval] = await fixture.approvals.list({ status: 'pending', limit: 5 });
    for (let i = 0; i < 500 && !approval; i++) {
      await delay(10);
      [approval] = await fixture.approvals.list({ status: 'pending', limit: 5 });
    }
    assert.ok(approval, 'the navigation waits for an approval');

    for (const page of ['', '/live']) {
      const response = await fixture.app.request(`/dashboard/tasks/${task.taskId}${page}`, {
        headers: { cookie },
      });
      const text = await response.text();
      assert.match(text, /<span class="badge s-awaiting_approval">awaiting approval<\/span>/);
      assert.match(text, new RegExp(`href="/dashboard/approvals#approval-${approval.id}"`));
      assert.match(text, /elsewhere\.example/, 'the action held back is shown');
      assert.doesNotMatch(text, /s-pending/, 'the waiting step is not shown as a bare pending');
    }
    const queue = await (
      await fixture.app.request('/dashboard/approvals', { headers: { cookie } })
    ).text();
    assert.match(queue, new RegExp(`id="approval-${approval.id}"`), 'the link has a target');

    await fixture.approvals.answer(approval.id, 'approve', 'dashboard:admin');
    assert.equal((await task.done).status, 'finished');
  });
});
