// A secret stored while the controlplane runs (issue 19, point 5). The server started with no
// vault key; `clawdie secret set` (another process) then makes the key and stores the value. The
// approved `type {{secret:pw}}` must type the value — never the placeholder — and a secret that
// cannot be read must stop the batch with a typed error and an audit row, nothing typed. The
// composition root as `npm start` builds it, a policy from a real policy dir, the fake operator
// as the page (it records every action that would reach the browser).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sleep } from '@clawdie/kit/timing';
import { createReplayModel } from '../../../../controlplane/src/agent/model/replay-model.js';
import { createTestControlplane } from '../../../support/controlplane.js';
import { createFakeOperator } from '../../../support/fake-operator.js';
import { secretSet } from '../../../support/gate-fixture.js';
import { submit } from '../../../support/submit-task.js';

const value = 'Correct-Horse-7731';
const policy = `tenant: default
domains: { allow: [shop.test] }
max_steps: 6
credentials:
  modes: [none, supervisor_approved]
  secrets: [{ name: pw, domains: [shop.test] }]
approvals: { timeout_s: 20 }
`;
const replies = [
  "Thought: click the password field\nAction: click(start_box='<|box_start|>(500,400)<|box_end|>')",
  "Thought: type the password\nAction: type(content='{{secret:pw}}')",
  "Thought: done\nAction: finished(content='signed in')",
];

async function startControlplane() {
  const policyDir = mkdtempSync(join(tmpdir(), 'clawdie-policy-'));
  writeFileSync(join(policyDir, 'default.yaml'), policy);
  // The login page: its password field fills the viewport, wherever the model clicks.
  const fake = createFakeOperator({
    pages: {
      'http://shop.test/login': {
        regions: [
          {
            box: { x: 0, y: 0, width: 1280, height: 800 },
            element: { tag: 'input', input_type: 'password', field: 'password' },
          },
        ],
      },
    },
  });
  const controlplane = await createTestControlplane({
    model: createReplayModel(replies),
    browsers: fake.operator,
    env: { CLAWDIE_POLICY_DIR: policyDir },
  });
  return { controlplane, fake };
}

/** Approves every pending approval of the task as it appears, until `done` settles. */
function approveAll(
  controlplane: Awaited<ReturnType<typeof startControlplane>>['controlplane'],
  done: Promise<unknown>,
) {
  let settled = false;
  void done.finally(() => {
    settled = true;
  });
  return (async () => {
    while (!settled) {
      for (const record of await controlplane.approvals.list({ status: 'pending', limit: 5 }))
        await controlplane.approvals.answer(record.id, 'approve', 'test supervisor');
      await sleep(20);
    }
  })();
}

describe('a secret stored while the server runs', () => {
  it('is typed after approval: the value reaches the page, the placeholder never', async (t) => {
    const { controlplane, fake } = await startControlplane();
    t.after(controlplane.close);
    mkdirSync(controlplane.dataDir, { recursive: true });
    await secretSet(controlplane.dataDir, 'pw', value);

    const started = await submit(controlplane.tasks, {
      instruction: 'sign in',
      start_url: 'http://shop.test/login',
      credential_mode: 'supervisor_approved',
    });
    const approving = approveAll(controlplane, started.done);
    const result = await started.done;
    await approving;

    const typed = fake.executed.filter((action) => action.type === 'type');
    assert.deepEqual(
      typed.map((action) => action.text),
      [value],
      JSON.stringify(result),
    );
    assert.equal(result.status, 'finished');
    const rows = await controlplane.audit.list({ limit: 100 });
    const typedRow = rows.find((row) => row.type === 'credential-typed');
    assert.equal(typedRow?.taskId, started.taskId);
    assert.ok(!JSON.stringify(rows).includes(value), 'the value is never audited');
  });

  it('stops the batch when the secret cannot be read: typed error, audited, nothing typed', async (t) => {
    const { controlplane, fake } = await startControlplane();
    t.after(controlplane.close);

    const started = await submit(controlplane.tasks, {
      instruction: 'sign in',
      start_url: 'http://shop.test/login',
      credential_mode: 'supervisor_approved',
    });
    const approving = approveAll(controlplane, started.done);
    const result = await started.done;
    await approving;

    assert.deepEqual(
      fake.executed.filter((action) => action.type === 'type'),
      [],
      'nothing was typed',
    );
    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'SECRET_UNAVAILABLE');
    const refused = (await controlplane.audit.list({ limit: 100 })).filter(
      (row) => row.type === 'credential-refused',
    );
    assert.equal(refused.length, 1);
    assert.equal(refused[0]?.taskId, started.taskId);
    assert.equal(refused[0]?.data.secret, 'pw');
    assert.equal(refused[0]?.data.code, 'SECRET_UNAVAILABLE');
  });

  it('refuses a placeholder in an unpoliced task (the demo service): nothing typed, audited', async (t) => {
    const { controlplane, fake } = await startControlplane();
    t.after(controlplane.close);
    await secretSet(controlplane.dataDir, 'pw', value);
    const unpoliced = controlplane.createTasks(createReplayModel(replies), { policed: false });
    t.after(() => unpoliced.close());

    const started = await submit(unpoliced, {
      instruction: 'sign in',
      start_url: 'http://shop.test/login',
    });
    await started.done;

    assert.deepEqual(
      fake.executed.filter((action) => action.type === 'type'),
      [],
      'the placeholder is never typed',
    );
    const refused = (await controlplane.audit.list({ limit: 100 })).filter(
      (row) => row.type === 'credential-refused',
    );
    assert.equal(refused.length, 1);
    assert.equal(refused[0]?.taskId, started.taskId);
    assert.equal(refused[0]?.data.code, 'OPERATOR_REJECTED');
  });
});
