import { html } from 'hono/html';
import type { TaskRecord, TaskStatus } from '../../platform/store/task-records.js';
import { badge, taskDuration, timestamp } from './format.js';

export const PAGE_SIZE = 50;

export const taskStatuses: readonly TaskStatus[] = [
  'queued',
  'running',
  'paused',
  'needs_user',
  'awaiting_approval',
  'finished',
  'max_steps',
  'call_user',
  'error',
  'aborted',
];

export interface TaskListView {
  status: TaskStatus | undefined;
  search: string;
  page: number;
  tasks: TaskRecord[];
  total: number;
  counts: Partial<Record<TaskStatus, number>>;
  now: number;
  /** Until tenants exist every task belongs to the one tenant of this controlplane. */
  tenant: string;
}

function listHref(view: Pick<TaskListView, 'status' | 'search'>, page: number): string {
  const query = new URLSearchParams();
  if (view.status) query.set('status', view.status);
  if (view.search) query.set('q', view.search);
  if (page > 1) query.set('page', String(page));
  const text = query.toString();
  return text ? `/dashboard?${text}` : '/dashboard';
}

/** The task list: status counts, filter and search form, one table page, pager. */
export function taskListBody(view: TaskListView) {
  const first = view.total === 0 ? 0 : (view.page - 1) * PAGE_SIZE + 1;
  const last = Math.min(view.total, view.page * PAGE_SIZE);
  const pages = Math.max(1, Math.ceil(view.total / PAGE_SIZE));
  const all = Object.values(view.counts).reduce((sum, n) => sum + (n ?? 0), 0);
  return html`<h1>Tasks</h1>
<ul class="counts" aria-label="Tasks by status">
<li><a href="/dashboard"${view.status ? '' : html` aria-current="true"`}><span class="badge">all ${all}</span></a></li>
${taskStatuses
  .filter((status) => view.counts[status])
  .map(
    (status) =>
      html`<li><a href="${listHref({ status, search: view.search }, 1)}"${view.status === status ? html` aria-current="true"` : ''}><span class="badge s-${status}">${status.replaceAll('_', ' ')} ${view.counts[status]}</span></a></li>`,
  )}
</ul>
<form class="filters" method="get" action="/dashboard" role="search">
<label>Status<select name="status">
<option value="">any</option>
${taskStatuses.map((status) => html`<option value="${status}"${view.status === status ? ' selected' : ''}>${status.replaceAll('_', ' ')}</option>`)}
</select></label>
<label>Search<input type="search" name="q" value="${view.search}" placeholder="instruction or trace id" size="32"></label>
<button type="submit">Filter</button>
${view.status || view.search ? html`<a class="button secondary" href="/dashboard">Clear</a>` : ''}
</form>
<table class="cards">
<caption class="skip">Tasks, newest first</caption>
<thead><tr><th scope="col">Status</th><th scope="col">Instruction</th><th scope="col">Tenant</th><th scope="col" class="num">Steps</th><th scope="col" class="num">Duration</th><th scope="col">Created (UTC)</th></tr></thead>
<tbody>
${view.tasks.map(
  (task) => html`<tr>
<td>${badge(task.status)}</td>
<td><a class="instr" href="/dashboard/tasks/${task.id}" title="${task.instruction}">${task.instruction}</a><span class="muted mono">${task.id.slice(0, 8)}</span></td>
<td data-label="Tenant">${view.tenant}</td>
<td class="num" data-label="Steps">${task.stepCount}/${task.maxSteps}</td>
<td class="num" data-label="Duration">${taskDuration(task, view.now)}</td>
<td data-label="Created (UTC)">${timestamp(task.createdAt)}</td>
</tr>`,
)}
${view.tasks.length === 0 ? html`<tr><td colspan="6" class="muted">No tasks match.</td></tr>` : ''}
</tbody>
</table>
<nav class="pager" aria-label="Pages">
${view.page > 1 ? html`<a class="button secondary" rel="prev" href="${listHref(view, view.page - 1)}">← Newer</a>` : ''}
<span>${first}–${last} of ${view.total} · page ${view.page} of ${pages}</span>
${view.page < pages ? html`<a class="button secondary" rel="next" href="${listHref(view, view.page + 1)}">Older →</a>` : ''}
</nav>`;
}
