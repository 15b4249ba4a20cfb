import { html } from 'hono/html';
import type { ActionRecord, TaskRecord } from '../store/task-records.js';
import { describeAction } from '../tasks/step-summary.js';
import { badge } from './format.js';
import type { StepCardData } from './step-card.js';

export interface LiveView {
  task: TaskRecord;
  cards: StepCardData[];
  active: boolean;
  paused: boolean;
  /** Whether pause/resume are offered by the task service. */
  canPause: boolean;
  hasScreencast: boolean;
}

const describe = (action: ActionRecord) =>
  action.action
    ? describeAction(action.action as Parameters<typeof describeAction>[0])
    : action.type;

function stepLine(card: StepCardData) {
  const { step } = card;
  return html`<li data-step="${step.index}">Step ${step.index} ${badge(step.outcome)} <span class="mono">${card.actions.map(describe).join(', ')}</span>${step.thought ? html`<div class="muted">${step.thought}</div>` : ''}</li>`;
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
    : html`<p class="muted card">${view.active ? 'This jail-service offers no live feed.' : 'The task is not running: there is no live feed.'}</p>`
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
</section>
<section class="card" aria-labelledby="live-steps-title">
<h2 id="live-steps-title">Steps</h2>
<ol data-live-steps aria-live="polite">${view.cards.map(stepLine)}</ol>
</section>
</div>
</div>`;
}

/** Follows the task's event stream: appends ended steps, shows the final status. */
export const liveScript = `(() => {
  const root = document.querySelector('[data-live]');
  if (!root) return;
  const id = root.getAttribute('data-live');
  const list = root.querySelector('[data-live-steps]');
  const status = root.querySelector('[data-live-status]');
  const badge = (text) => {
    const span = document.createElement('span');
    span.className = 'badge s-' + text;
    span.textContent = text.replaceAll('_', ' ');
    return span;
  };
  // The feed heals itself: reopen it on error, or when no frame arrived within 4 s (the
  // jail-service may have been busy, e.g. navigating to the start URL), while the task runs.
  const screen = root.querySelector('[data-live-screen]');
  if (screen) {
    const feed = screen.getAttribute('src');
    let attempts = 0;
    const reopen = () => {
      if (root.hasAttribute('data-live-ended') || attempts >= 30) return;
      attempts += 1;
      screen.setAttribute('src', feed + '?attempt=' + attempts);
    };
    screen.addEventListener('error', () => setTimeout(reopen, 1000));
    const watchdog = setInterval(() => {
      if (root.hasAttribute('data-live-ended') || screen.naturalWidth > 0) clearInterval(watchdog);
      else reopen();
    }, 4000);
  }
  const source = new EventSource('/dashboard/tasks/' + encodeURIComponent(id) + '/events');
  source.addEventListener('step', (message) => {
    const step = JSON.parse(message.data);
    if (list.querySelector('[data-step="' + step.step + '"]')) return;
    const item = document.createElement('li');
    item.setAttribute('data-step', String(step.step));
    item.append('Step ' + step.step + ' ', badge(step.outcome), ' ');
    const actions = document.createElement('span');
    actions.className = 'mono';
    actions.textContent = step.actions.join(', ');
    item.append(actions);
    if (step.thought) {
      const thought = document.createElement('div');
      thought.className = 'muted';
      thought.textContent = step.thought;
      item.append(thought);
    }
    list.append(item);
  });
  source.addEventListener('result', (message) => {
    const result = JSON.parse(message.data);
    status.replaceChildren(badge(result.status));
    root.querySelector('[data-live-controls]')?.remove();
    root.setAttribute('data-live-ended', result.status);
    source.close();
  });
})();
`;
