import { html } from 'hono/html';
import type { ApprovalRecord } from '../../governance/approvals/approval-types.js';
import type { Notifier } from '../../governance/approvals/notifier.js';
import { approvalFacts, approvalShot } from './approval-detail.js';
import { badge, duration, timestamp } from './format.js';

/** Who the approval service records for an answer given on the dashboard. */
export const DASHBOARD_ANSWERER = 'dashboard:admin';

/** Approvals in the "recent" list under the queue. */
export const RECENT_APPROVALS = 10;

/**
 * The screenshots sent with approval requests, kept in memory for the dashboard (the approval
 * store keeps none). Attached to the approval service as one more notifier; holds at most `max`.
 */
export interface ApprovalScreens extends Notifier {
  get(id: string): Buffer | null;
}

export function createApprovalScreens(max = 50): ApprovalScreens {
  const shots = new Map<string, Buffer>();
  return {
    name: 'dashboard',
    async requestApproval(record, screenshot) {
      if (!screenshot) return;
      shots.set(record.id, screenshot);
      for (const id of shots.keys()) {
        if (shots.size <= max) break;
        shots.delete(id);
      }
    },
    async approvalClosed() {
      // Kept for the "recent" list until pushed out by newer requests.
    },
    get: (id) => shots.get(id) ?? null,
  };
}

export interface ApprovalsView {
  pending: ApprovalRecord[];
  recent: ApprovalRecord[];
  hasScreenshot: (id: string) => boolean;
  now: number;
  /** A problem with the last answer (already answered elsewhere, unknown id). */
  error?: string | undefined;
}

function taskLink(taskId: string | null) {
  return taskId
    ? html`<a class="mono" href="/dashboard/tasks/${taskId}">${taskId.slice(0, 8)}</a>`
    : html`<span class="muted">no task</span>`;
}

function pendingCard(record: ApprovalRecord, view: ApprovalsView) {
  const left = record.expiresAt - view.now;
  return html`<li class="card approval" data-approval="${record.id}">
<div class="approval-text">
<h2 id="approval-${record.id}"><span class="badge s-pending">${record.kind.replaceAll('_', ' ')}</span> ${record.reason}</h2>
<dl class="facts">
${approvalFacts(record)}
<dt>Task</dt><dd>${taskLink(record.taskId)}</dd>
<dt>Tenant</dt><dd>${record.tenant}</dd>
<dt>Requested</dt><dd>${timestamp(record.requestedAt)} UTC</dd>
<dt>Time left</dt><dd data-time-left>${left > 0 ? duration(left) : 'expiring'} <span class="muted">(then denied)</span></dd>
</dl>
<form class="decide" method="post" action="/dashboard/approvals/${record.id}">
<button type="submit" name="decision" value="approve" data-approve>Approve</button>
<button type="submit" name="decision" value="deny" class="danger" data-deny>Deny</button>
</form>
</div>
${
  view.hasScreenshot(record.id)
    ? approvalShot(record)
    : html`<p class="approval-shot muted">No screenshot was sent with this request.</p>`
}
</li>`;
}

/** Pending approvals (oldest first) with their screenshot and buttons, then the recent answers. */
export function approvalsBody(view: ApprovalsView) {
  return html`<h1>Approvals</h1>
${view.error ? html`<p class="notice" role="alert">${view.error}</p>` : ''}
<p class="muted">Answers here work like the Telegram buttons: the first answer from any channel wins, no answer before the time runs out counts as a denial. <a href="/dashboard/approvals">Refresh</a></p>
<section aria-labelledby="pending-title">
<h2 id="pending-title">Pending <span class="muted">(${view.pending.length})</span></h2>
${
  view.pending.length === 0
    ? html`<p class="card muted" data-queue-empty>No approvals are waiting.</p>`
    : html`<ol class="approvals">${view.pending.map((record) => pendingCard(record, view))}</ol>`
}
</section>
<section aria-labelledby="recent-title">
<h2 id="recent-title">Recent</h2>
<table class="recent">
<caption class="skip">Recently answered or expired approvals, newest first</caption>
<thead><tr><th scope="col">Requested (UTC)</th><th scope="col">Kind</th><th scope="col">Reason</th><th scope="col">Task</th><th scope="col">Outcome</th><th scope="col">By</th><th scope="col">Answered (UTC)</th></tr></thead>
<tbody>
${view.recent.map(
  (record) => html`<tr data-recent="${record.id}">
<td>${timestamp(record.requestedAt)}</td><td>${record.kind.replaceAll('_', ' ')}</td><td>${record.reason}</td>
<td>${taskLink(record.taskId)}</td><td>${badge(record.status)}</td>
<td class="mono">${record.answeredBy ?? html`<span class="muted">—</span>`}</td><td>${timestamp(record.answeredAt)}</td></tr>`,
)}
${view.recent.length === 0 ? html`<tr><td colspan="7" class="muted">Nothing answered yet.</td></tr>` : ''}
</tbody>
</table>
</section>`;
}
