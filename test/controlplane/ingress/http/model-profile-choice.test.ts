// Issue 22 (1): a task may run with another model profile than CLAWDIE_MODEL_PROFILE only where its
// tenant policy lists it (models.profiles); the refusal is a 400 POLICY_DENIED at admission and is
// audited. The task's profile is in REST (model_profile, coordinate_mode) and the audit's
// task-started row. A profile of the same wire runs on the configured client.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTestControlplane, type TestControlplane } from '../../../support/controlplane.js';
import { createPerTaskScriptModel } from '../../../support/per-task-script-model.js';

async function post(base: string, path: string, body: unknown) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function until(base: string, id: string) {
  for (let i = 0; i < 200; i++) {
    const { task } = (await (await fetch(`${base}/v1/tasks/${id}`)).json()) as any;
    if (['finished', 'error', 'aborted', 'max_steps', 'call_user'].includes(task.status))
      return task;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`task ${id} did not end`);
}

describe('a task chooses its model profile where the tenant policy lists it', () => {
  let controlplane: TestControlplane;
  let base = '';
  let policyDir = '';
  before(async () => {
    policyDir = mkdtempSync(join(tmpdir(), 'clawdie-profile-choice-'));
    writeFileSync(
      join(policyDir, 'default.yaml'),
      'tenant: default\ndomains: { allow: ["*"] }\nmax_steps: 3\nmodels: { profiles: [ui-tars-1.0] }\n',
    );
    controlplane = await createTestControlplane({
      model: createPerTaskScriptModel(["Action: finished(content='done')"]),
      env: { CLAWDIE_POLICY_DIR: policyDir },
    });
    base = await controlplane.serve();
  });
  after(async () => {
    await controlplane?.close();
    if (policyDir) rmSync(policyDir, { recursive: true, force: true });
  });

  it('refuses a profile the policy does not list, with 400 POLICY_DENIED, audited', async () => {
    const { status, body } = await post(base, '/v1/tasks', {
      instruction: 'x',
      model_profile: 'qwen3-vl',
    });
    assert.equal(status, 400);
    assert.equal(body.error.code, 'POLICY_DENIED');
    assert.match(body.error.message, /model profile qwen3-vl is not listed.*models\.profiles/);
    const rows = await controlplane.audit.list({ limit: 100 });
    assert.ok(
      rows.some((row) => JSON.stringify(row).includes('model profile qwen3-vl is not listed')),
      'the refusal is audited',
    );
  });

  it('runs a listed profile, and says so in REST and the audit', async () => {
    const { status, body } = await post(base, '/v1/tasks', {
      instruction: 'x',
      model_profile: 'ui-tars-1.0',
    });
    assert.equal(status, 202, JSON.stringify(body));
    const task = await until(base, body.trace_id);
    assert.equal(task.status, 'finished');
    assert.equal(task.model_profile, 'ui-tars-1.0');
    assert.equal(task.coordinate_mode, '1.0');
    const started = (await controlplane.audit.list({ limit: 100, taskId: body.trace_id })).find(
      (row) => row.type === 'task-started',
    );
    assert.match(JSON.stringify(started), /"profile":"ui-tars-1\.0"/);
  });

  it('runs the configured profile without a policy entry', async () => {
    const { status, body } = await post(base, '/v1/tasks', {
      instruction: 'x',
      model_profile: 'ui-tars-1.5',
    });
    assert.equal(status, 202, JSON.stringify(body));
    const task = await until(base, body.trace_id);
    assert.equal(task.model_profile, 'ui-tars-1.5');
    assert.equal(task.coordinate_mode, '1.5');
  });
});
