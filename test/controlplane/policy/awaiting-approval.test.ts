import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { createApprovalsFixture } from '../approvals/approvals-fixture.js';
import { createPolicyFixture } from './policy-fixture.js';

const finish = "Action: finished(content='done')";

describe('a task waiting for an operator approval', () => {
  it('is awaiting_approval with the pending action and the approval id on REST and SSE, then running again', async (t) => {
    const approvals = createApprovalsFixture();
    t.after(approvals.close);
    const fixture = await createPolicyFixture({
      outputs: ["Action: navigate(url='https://elsewhere.example/')", finish],
      approver: approvals.approvals,
    });
    t.after(fixture.close);
    const response = await fixture.startTask({
      instruction: 'go elsewhere',
      start_url: 'https://shop.example/',
    });
    const { trace_id: id } = (await response.json()) as { trace_id: string };
    let pending = approvals.approvals.list({ status: 'pending', limit: 10 });
    for (let i = 0; i < 500 && pending.length === 0; i++) {
      await delay(10);
      pending = approvals.approvals.list({ status: 'pending', limit: 10 });
    }
    const [approval] = pending;
    assert.ok(approval, 'the navigation asked for an approval');

    const detail = await fixture.app.request(`/v1/tasks/${id}`, {
      headers: { authorization: await fixture.bearer() },
    });
    const body = (await detail.json()) as {
      task: { status: string };
      approval: { id: string; kind: string; action: { type: string; url?: string } } | null;
    };
    assert.equal(body.task.status, 'awaiting_approval');
    assert.equal(body.approval?.id, approval.id);
    assert.equal(body.approval?.kind, 'navigation');
    assert.deepEqual(body.approval?.action, {
      type: 'navigate',
      url: 'https://elsewhere.example/',
    });

    const statuses = () =>
      fixture.tasks.events
        .since(id, 0)
        .flatMap(({ event }) => (event.type === 'status' ? [event.data] : []));
    const waiting = statuses().at(-1);
    assert.equal(waiting?.status, 'awaiting_approval');
    assert.equal(waiting?.approval?.id, approval.id);
    assert.deepEqual(waiting?.approval?.action, body.approval?.action);

    approvals.approvals.answer(approval.id, 'approve', 'api:ops');
    const ended = await fixture.waitFor(id);
    assert.equal(ended?.status, 'finished');
    assert.deepEqual(
      statuses().map((status) => status.status),
      ['queued', 'running', 'awaiting_approval', 'running'],
    );
    assert.equal(fixture.tasks.pendingApproval?.(id), null);
  });
});
