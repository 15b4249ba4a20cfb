import { html } from 'hono/html';
import type { PendingApproval } from '../../tasks/live-status.js';

/**
 * The approval an `awaiting_approval` task waits for: what it asks, the action held back, and a
 * link to answer it on the approvals page. The live script draws the same notice from SSE.
 */
export function approvalNotice(approval: PendingApproval | null) {
  if (!approval) return '';
  const action = approval.action === null ? null : JSON.stringify(approval.action);
  return html`<div class="notice" data-live-approval="${approval.id}">
<p>Waiting for a supervisor's approval (${approval.kind.replaceAll('_', ' ')}): ${approval.reason}</p>
${action ? html`<p>Held back: <span class="mono" data-approval-action>${action}</span></p>` : ''}
<p><a href="/dashboard/approvals#approval-${approval.id}">Answer approval ${approval.id.slice(0, 8)}</a></p>
</div>`;
}
