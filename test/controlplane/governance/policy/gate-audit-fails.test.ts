// The gate fails closed: when the audit row of its decision cannot be committed (the disk filled
// mid-task), the action is not run, nothing after it is, and the task ends AUDIT_WRITE_FAILED.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPolicyFixture } from './policy-fixture.js';

const click = (x: number) =>
  `Thought: Click.\nAction: click(start_box='<|box_start|>(${x},200)<|box_end|>')`;

describe('the action gate when the audit cannot be written', () => {
  it('runs no action whose decision was not recorded and ends the task AUDIT_WRITE_FAILED', async (t) => {
    let clicks = 0;
    const fixture = await createPolicyFixture({
      outputs: [click(100), click(200), click(300), click(400), "Action: finished(content='x')"],
      operator: {
        // The audit's SQLite store stops taking writes right after the first click's decision
        // was committed: from here on every append fails in the store, as on a full disk.
        beforeAction: (action) => {
          if (action.type === 'click' && ++clicks === 1)
            fixture.auditDatabase.db.$client.pragma('query_only = ON');
        },
      },
    });
    t.after(fixture.close);
    const response = await fixture.startTask({
      instruction: 'click around',
      start_url: 'https://shop.example/',
    });
    const { trace_id: id } = (await response.json()) as { trace_id: string };
    const task = await fixture.waitFor(id);

    const clicked = fixture.fake.executed.filter((action) => action.type === 'click');
    assert.equal(
      clicked.length,
      1,
      'only the click whose decision was recorded reached the browser',
    );
    assert.equal(task?.status, 'error', 'the task row reached its terminal state');
    assert.equal(task?.errorCode, 'AUDIT_WRITE_FAILED');
    assert.match(
      task?.errorMessage ?? '',
      /the audit log could not be written \(policy-decided: .*readonly database\), so nothing more was run/,
    );
    const steps = await fixture.repository.listSteps(id);
    assert.deepEqual(
      steps.map((step) => step.outcome),
      ['acted', 'failed'],
    );
    const decided = (await fixture.audit.list({ limit: 50, taskId: id })).filter(
      (row) => row.type === 'policy-decided' && row.data.subject === 'action',
    );
    assert.equal(decided.length, 1, 'the one decision recorded is the click that ran');
  });
});
