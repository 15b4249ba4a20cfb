import { html } from 'hono/html';
import type { ActionRecord, TaskRecord } from '../../platform/store/task-records.js';
import type { PendingApproval } from '../../tasks/live-status.js';
import { describeAction } from '../../tasks/step-summary.js';
import { approvalNotice } from './approval-notice.js';
import { badge } from './format.js';
import type { StepCardData } from './step-card.js';
import { takeoverNotice } from './takeover-notice.js';

export interface LiveView {
  task: TaskRecord;
  cards: StepCardData[];
  active: boolean;
  paused: boolean;
  /** Whether pause/resume are offered by the task service. */
  canPause: boolean;
  hasScreencast: boolean;
  /** Why a person is needed, while the task waits in needs_user and can be taken over. */
  takeover?: { reason: string } | null;
  /** The approval the task waits for (status `awaiting_approval`). */
  approval?: PendingApproval | null;
}

const describe = (action: ActionRecord) =>
  action.action
    ? describeAction(action.action as Parameters<typeof describeAction>[0])
    : action.type;

/**
 * The outcome to show: a step still `pending` is in progress only while it is the last step of a
 * running task (waiting for an approval when the task is `awaiting_approval`); once a later step
 * exists or the task ended it never finished ("unfinished", rows from before steps cut short
 * were recorded `aborted`).
 */
export function shownOutcome(
  outcome: string,
  isLast: boolean,
  active: boolean,
  status?: string,
): string {
  if (outcome !== 'pending') return outcome;
  if (!isLast || !active) return 'unfinished';
  return status === 'awaiting_approval' ? 'awaiting_approval' : outcome;
}

function stepLine(card: StepCardData, isLast: boolean, active: boolean, status: string) {
  const { step } = card;
  return html`<li data-step="${step.index}">Step ${step.index} ${badge(shownOutcome(step.outcome, isLast, active, status))} <span class="mono">${card.actions.map(describe).join(', ')}</span>${step.thought ? html`<div class="muted">${step.thought}</div>` : ''}</li>`;
}

/** The ended task's final frame (its final screenshot), or why there is none. */
function finalFrame(task: TaskRecord, base: string) {
  return task.finalScreenshotPath
    ? html`<img class="screen" data-live-final src="${base}/final.jpg" alt="The final screen of the task">`
    : html`<p class="muted card" data-live-final>The task ended without a final screenshot.</p>`;
}

/** What the task returned: status, summary, data or error. */
function resultCard(task: TaskRecord) {
  const data =
    task.resultData === null || task.resultData === undefined
      ? null
      : JSON.stringify(task.resultData, null, 2);
  return html`<section class="card" aria-labelledby="live-result-title" data-live-result>
<h2 id="live-result-title">Result</h2>
<p>${badge(task.status)} ${task.summary ?? ''}</p>
${data ? html`<pre class="mono">${data}</pre>` : ''}
${task.errorCode ? html`<p class="error-text">${task.errorCode}: ${task.errorMessage ?? ''}</p>` : ''}
</section>`;
}

/** The live view: the relayed screencast, loop controls, and steps as they end (via SSE). */
export function liveBody(view: LiveView) {
  const { task } = view;
  const base = `/dashboard/tasks/${task.id}`;
  const status = view.active && view.paused ? 'paused' : task.status;
  return html`<h1>Live view</h1>
<p><a href="${base}">← Task details</a></p>
<div class="live" data-live="${task.id}">
<div>
${
  view.active && view.hasScreencast
    ? html`<img class="screen" data-live-screen src="${base}/screencast" alt="Live view of the task's browser">`
    : view.active
      ? html`<p class="muted card">This jail-service offers no live feed.</p>`
      : finalFrame(task, base)
}
</div>
<div>
<section class="card" aria-labelledby="live-status-title">
<h2 id="live-status-title">Status</h2>
<p>Status: <span data-live-status role="status">${badge(status)}</span></p>
<p class="muted">${task.instruction}</p>
${
  view.active
    ? html`<div class="controls" data-live-controls>
<form method="post" action="${base}/abort"><button class="danger" type="submit">Abort</button></form>
${
  view.canPause
    ? view.paused
      ? html`<form method="post" action="${base}/resume"><button type="submit">Resume</button></form>`
      : html`<form method="post" action="${base}/pause"><button class="secondary" type="submit">Pause</button></form>`
    : ''
}
</div>
${view.paused ? html`<p class="notice">Paused: the loop waits before its next step.</p>` : ''}`
    : ''
}
${takeoverNotice(task.id, view.takeover)}
${approvalNotice(view.approval ?? null)}
</section>
${view.active ? '' : resultCard(task)}
<section class="card" aria-labelledby="live-steps-title">
<h2 id="live-steps-title">Steps</h2>
<ol data-live-steps aria-live="polite">${view.cards.map((card, index) => stepLine(card, index === view.cards.length - 1, view.active, status))}</ol>
</section>
</div>
</div>`;
}
