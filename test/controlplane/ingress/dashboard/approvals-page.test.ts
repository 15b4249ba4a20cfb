import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { ApprovalOutcome } from '../../../../controlplane/src/governance/approvals/approval-types.js';
import { createSteppedClock, sampleRequest } from '../../governance/approvals/approvals-fixture.js';
import { createDashboardFixture, createDashboardPagesFixture } from './dashboard-fixture.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

const clock = createSteppedClock();
// The controlplane's own approvals queue and audit, on the stepped clock.
const fixture = await createDashboardFixture({ clock });
const service = { approvals: fixture.approvals, audit: fixture.audit };
after(() => fixture.close());

const screenshot = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);

/** A pending approval through the real service; resolves with the outcome of its `request()`. */
async function requestApproval(
  reason: string,
): Promise<{ id: string; outcome: Promise<ApprovalOutcome> }> {
  const outcome = service.approvals.request({ ...sampleRequest, reason, screenshot });
  await tick();
  const record = (await service.approvals.list({ status: 'pending', limit: 50 })).find(
    (candidate) => candidate.reason === reason,
  );
  assert.ok(record, `pending approval for ${reason}`);
  return { id: record.id, outcome };
}

function answer(id: string, decision: string, headers: Record<string, string>) {
  return fixture.app.request(`/dashboard/approvals/${id}`, {
    method: 'POST',
    headers,
    body: new URLSearchParams({ decision }),
  });
}

describe('dashboard approvals queue', () => {
  it('lists a pending approval with its reason, kind, task link, time left, screenshot and buttons', async () => {
    const cookie = await fixture.login();
    const { id, outcome } = await requestApproval('type secret bank_password on bank.example');
    const response = await fixture.app.request('/dashboard/approvals', { headers: { cookie } });
    assert.equal(response.status, 200);
    const page = await response.text();
    assert.match(page, new RegExp(`<li class="card approval" data-approval="${id}">`));
    assert.match(page, /type secret bank_password on bank\.example/);
    assert.match(page, /<span class="badge s-pending">credential<\/span>/);
    assert.match(page, /<a class="mono" href="\/dashboard\/tasks\/task-1">task-1<\/a>/);
    assert.match(page, /<dd data-time-left>1 min 00 s/);
    clock.advance(15_000);
    const later = await (
      await fixture.app.request('/dashboard/approvals', { headers: { cookie } })
    ).text();
    assert.match(later, /<dd data-time-left>45\.0 s/);
    assert.match(page, new RegExp(`<img src="/dashboard/approvals/${id}/screenshot"`));
    assert.match(
      page,
      new RegExp(`<form class="decide" method="post" action="/dashboard/approvals/${id}">`),
    );
    assert.match(page, /aria-current="page">Approvals</);

    const image = await fixture.app.request(`/dashboard/approvals/${id}/screenshot`, {
      headers: { cookie },
    });
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/jpeg');
    assert.deepEqual(Buffer.from(await image.arrayBuffer()), screenshot);

    const denied = await answer(id, 'deny', { cookie });
    assert.equal((await outcome).approved, false);
    assert.equal(denied.status, 303);
  });

  it('approves from the dashboard: the waiting request resolves and the audit names the dashboard', async () => {
    const cookie = await fixture.login();
    const { id, outcome } = await requestApproval('open admin.example');
    const response = await answer(id, 'approve', { cookie });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), '/dashboard/approvals');
    assert.deepEqual(await outcome, { approved: true, approvalId: id, by: 'dashboard:admin' });
    const row = (await service.audit.list({ limit: 100 })).find(
      (candidate) => candidate.type === 'approval-answered' && candidate.data.approval === id,
    );
    assert.equal(row?.actor, 'dashboard:admin');
    assert.deepEqual(row?.data, { approval: id, answer: 'approved' });

    const page = await (
      await fixture.app.request('/dashboard/approvals', { headers: { cookie } })
    ).text();
    assert.ok(!page.includes(`data-approval="${id}"`), 'left the queue');
    assert.match(
      page,
      new RegExp(`<tr data-recent="${id}">[\\s\\S]*?s-approved[\\s\\S]*?dashboard:admin`),
    );
  });

  it('denies from the dashboard', async () => {
    const cookie = await fixture.login();
    const { id, outcome } = await requestApproval('press Delete account');
    assert.equal((await answer(id, 'deny', { cookie })).status, 303);
    assert.deepEqual(await outcome, {
      approved: false,
      approvalId: id,
      by: 'dashboard:admin',
      why: 'denied',
    });
    assert.equal((await service.approvals.get(id))?.status, 'denied');
  });

  it('says so when the approval was already answered elsewhere, changing nothing', async () => {
    const cookie = await fixture.login();
    const { id, outcome } = await requestApproval('answered in Telegram first');
    await service.approvals.answer(id, 'deny', 'telegram:alice');
    await outcome;
    const response = await answer(id, 'approve', { cookie });
    assert.equal(response.headers.get('location'), '/dashboard/approvals?error=closed');
    assert.equal((await service.approvals.get(id))?.answeredBy, 'telegram:alice');
    const page = await (
      await fixture.app.request('/dashboard/approvals?error=closed', { headers: { cookie } })
    ).text();
    assert.match(page, /role="alert">That approval was already answered/);
    assert.equal((await answer(id, 'maybe', { cookie })).status, 400, 'only approve or deny');
  });

  it('needs a session and refuses cross-site writes', async () => {
    const cookie = await fixture.login();
    const { id, outcome } = await requestApproval('cross-site attempt');
    const page = await fixture.app.request('/dashboard/approvals', {
      headers: { accept: 'text/html' },
    });
    assert.equal(page.status, 303);
    assert.match(page.headers.get('location') ?? '', /^\/dashboard\/login\?next=/);
    assert.equal((await answer(id, 'approve', {})).status, 401);
    assert.equal((await fixture.app.request(`/dashboard/approvals/${id}/screenshot`)).status, 401);
    const crossSite = await answer(id, 'approve', { cookie, 'sec-fetch-site': 'cross-site' });
    assert.equal(crossSite.status, 403);
    assert.equal((await service.approvals.get(id))?.status, 'pending');
    await service.approvals.answer(id, 'deny', 'test');
    await outcome;
  });

  it('is not offered without approvals', async () => {
    // The page without an approvals queue (the controlplane always has one).
    const bare = createDashboardPagesFixture({ dashboard: {} });
    after(() => bare.close());
    const cookie = await bare.login();
    const response = await bare.app.request('/dashboard/approvals', { headers: { cookie } });
    assert.equal(response.status, 404);
    const home = await (await bare.app.request('/dashboard', { headers: { cookie } })).text();
    assert.ok(!home.includes('/dashboard/approvals'));
  });
});
