import { html } from 'hono/html';

/**
 * While a task waits in needs_user and can be taken over: why, and the Take over button (a fresh
 * single-use link for the admin, opened at once on its landing page).
 */
export function takeoverNotice(taskId: string, takeover: { reason: string } | null | undefined) {
  if (!takeover) return '';
  return html`<div class="notice" data-live-takeover><p>This task needs a person (${takeover.reason.replaceAll('_', ' ')}). The model waits until you hand back.</p>
<form method="post" action="/dashboard/tasks/${taskId}/takeover"><button type="submit">Take over</button></form></div>`;
}
