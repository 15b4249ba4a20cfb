import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createApprovalsFixture,
  createRecordingNotifier,
  createSteppedClock,
  sampleRequest,
} from './approvals-fixture.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('approval service', () => {
  it('sends the request with the screenshot, resolves on an answer and audits who answered', async (t) => {
    const { approvals, audit, close } = createApprovalsFixture();
    t.after(close);
    const recording = createRecordingNotifier();
    approvals.attach(recording.notifier);
    const pending = approvals.request(sampleRequest);
    await tick();
    const [sent] = recording.requested;
    assert.equal(sent?.record.status, 'pending');
    assert.deepEqual(sent?.screenshot, sampleRequest.screenshot);
    assert.equal((await approvals.list({ status: 'pending', limit: 10 })).length, 1);
    await approvals.answer(sent?.record.id ?? '', 'approve', 'api:tenant:ops/alice');
    assert.deepEqual(await pending, {
      approved: true,
      approvalId: sent?.record.id,
      by: 'api:tenant:ops/alice',
    });
    assert.equal(recording.closed[0]?.status, 'approved');
    const rows = await audit.list({ limit: 10 });
    assert.deepEqual(
      rows.map((row) => row.type),
      ['approval-requested', 'approval-answered'],
    );
    assert.equal(rows[1]?.actor, 'api:tenant:ops/alice');
    await assert.rejects(approvals.answer(sent?.record.id ?? '', 'deny', 'x'), /already approved/);
    await assert.rejects(approvals.answer('nope', 'deny', 'x'), /no approval nope/);
  });

  it('treats no answer before the timeout as a denial', async (t) => {
    const clock = createSteppedClock();
    const { approvals, audit, close } = createApprovalsFixture(clock);
    t.after(close);
    const pending = approvals.request(sampleRequest);
    await tick();
    clock.advance(59_999);
    await tick();
    assert.equal((await approvals.list({ status: 'pending', limit: 10 })).length, 1);
    clock.advance(1);
    const outcome = await pending;
    assert.deepEqual(outcome, {
      approved: false,
      approvalId: outcome.approvalId,
      by: null,
      why: 'expired',
    });
    assert.equal((await approvals.get(outcome.approvalId))?.status, 'expired');
    assert.ok((await audit.list({ limit: 10 })).some((row) => row.type === 'approval-expired'));
    await assert.rejects(
      approvals.answer(outcome.approvalId, 'approve', 'late'),
      /already expired/,
    );
  });

  it('still works through the API when a notifier is unreachable, and audits the failure', async (t) => {
    const { approvals, audit, close } = createApprovalsFixture();
    t.after(close);
    approvals.attach(createRecordingNotifier({ fail: true }).notifier);
    const pending = approvals.request(sampleRequest);
    await tick();
    const failed = (await audit.list({ limit: 10 })).find((row) => row.type === 'notifier-failed');
    assert.match(String(failed?.data.error), /ECONNREFUSED/);
    const [open] = await approvals.list({ status: 'pending', limit: 1 });
    await approvals.answer(open?.id ?? '', 'deny', 'api:tenant:ops/bob');
    assert.equal((await pending).approved, false);
  });

  it('rejects on abort and closes the request', async (t) => {
    const { approvals, close } = createApprovalsFixture();
    t.after(close);
    const controller = new AbortController();
    const pending = approvals.request(sampleRequest, controller.signal);
    await tick();
    controller.abort();
    await assert.rejects(pending, { name: 'AbortError' });
    assert.equal((await approvals.list({ status: 'expired', limit: 1 })).length, 1);
  });
});
