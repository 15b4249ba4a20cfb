import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { createBrowserRunTaskTool } from '../../../../controlplane/src/ingress/mcp/browser-run-task-tool.js';
import { browserRunTaskInputSchema } from '../../../../controlplane/src/tasks/task-input.js';
import { createApprovalsFixture } from '../approvals/approvals-fixture.js';
import { createPolicyFixture } from './policy-fixture.js';

const finish = "Action: finished(content='done')";

/** A policed task service whose model navigates outside the domains first (approval needed). */
async function navigationNeedingApproval(t: { after(fn: () => unknown): void }) {
  const approvals = createApprovalsFixture();
  t.after(approvals.close);
  const fixture = await createPolicyFixture({
    outputs: ["Action: navigate(url='https://elsewhere.example/')", finish],
    approver: approvals.approvals,
  });
  t.after(fixture.close);
  return { approvals, fixture };
}

/** Starts the task over REST; its id. */
async function startGoingElsewhere(
  fixture: Awaited<ReturnType<typeof createPolicyFixture>>,
): Promise<string> {
  const response = await fixture.startTask({
    instruction: 'go elsewhere',
    start_url: 'https://shop.example/',
  });
  return ((await response.json()) as { trace_id: string }).trace_id;
}

/** The first pending approval, once the task has asked for it. */
async function firstPending(approvals: ReturnType<typeof createApprovalsFixture>) {
  let [approval] = await approvals.approvals.list({ status: 'pending', limit: 10 });
  for (let i = 0; i < 500 && !approval; i++) {
    await delay(10);
    [approval] = await approvals.approvals.list({ status: 'pending', limit: 10 });
  }
  assert.ok(approval, 'the navigation asked for an approval');
  return approval;
}

describe('a task waiting for a supervisor approval', () => {
  it('is awaiting_approval with the pending action and the approval id on REST and SSE, then running again', async (t) => {
    const { approvals, fixture } = await navigationNeedingApproval(t);
    const id = await startGoingElsewhere(fixture);
    const approval = await firstPending(approvals);

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

    await approvals.approvals.answer(approval.id, 'approve', 'api:ops');
    const ended = await fixture.waitFor(id);
    assert.equal(ended?.status, 'finished');
    assert.deepEqual(
      statuses().map((status) => status.status),
      ['queued', 'running', 'awaiting_approval', 'running'],
    );
    assert.equal(fixture.tasks.pendingApproval?.(id), null);
  });
});

describe('MCP progress of a task waiting for an approval', () => {
  it('reports awaiting_approval with the approval id between the steps', async (t) => {
    const { approvals, fixture } = await navigationNeedingApproval(t);
    const tool = createBrowserRunTaskTool({
      tasks: fixture.tasks,
      principal: { tenant: 'acme', subject: 'tester', scopes: ['tasks:run'], via: 'token' },
      defaultMaxSteps: 8,
    });
    const progress: { progress: number; message: string }[] = [];
    const call = tool.handle(
      browserRunTaskInputSchema.parse({
        instruction: 'go elsewhere',
        start_url: 'https://shop.example/',
      }),
      {
        signal: new AbortController().signal,
        reportProgress: async (update) => {
          progress.push(update);
        },
      },
    );
    const approval = await firstPending(approvals);
    await delay(20);
    assert.match(
      progress.at(-1)?.message ?? '',
      new RegExp(`^awaiting_approval: navigation approval ${approval.id} pending`),
    );
    await approvals.approvals.answer(approval.id, 'approve', 'api:ops');
    const result = await call;
    assert.equal(result.structuredContent?.status, 'finished');
    const values = progress.map((update) => update.progress);
    assert.deepEqual(
      values,
      [...values].sort((a, b) => a - b),
      'progress only increases',
    );
  });
});

describe('pausing a task that awaits an approval', () => {
  it('stays awaiting_approval until answered, then is paused until resumed', async (t) => {
    const { approvals, fixture } = await navigationNeedingApproval(t);
    const id = await startGoingElsewhere(fixture);
    const approval = await firstPending(approvals);
    assert.equal(await fixture.tasks.pause?.(id), true);
    assert.equal((await fixture.repository.getTask(id))?.status, 'awaiting_approval');
    await approvals.approvals.answer(approval.id, 'approve', 'api:ops');
    await delay(50);
    assert.equal((await fixture.repository.getTask(id))?.status, 'paused');
    const statuses = fixture.tasks.events
      .since(id, 0)
      .flatMap(({ event }) => (event.type === 'status' ? [event.data.status] : []));
    assert.deepEqual(statuses, ['queued', 'running', 'awaiting_approval', 'paused']);
    await fixture.tasks.resume?.(id);
    assert.equal((await fixture.waitFor(id))?.status, 'finished');
  });
});

describe('aborting a task that awaits an approval', () => {
  it('ends it at once, without waiting for the answer', async (t) => {
    const { approvals, fixture } = await navigationNeedingApproval(t);
    const id = await startGoingElsewhere(fixture);
    await firstPending(approvals);
    assert.equal((await fixture.repository.getTask(id))?.status, 'awaiting_approval');
    const started = Date.now();
    assert.equal(fixture.tasks.abort(id), true);
    const ended = await fixture.waitFor(id);
    assert.ok(Date.now() - started < 2000, 'the abort did not wait for the approval timeout');
    assert.equal(ended?.status, 'aborted');
    assert.equal(fixture.tasks.pendingApproval?.(id), null);
    const statuses = fixture.tasks.events
      .since(id, 0)
      .flatMap(({ event }) => (event.type === 'status' ? [event.data.status] : []));
    assert.deepEqual(statuses, ['queued', 'running', 'awaiting_approval']);
  });
});
