import { html } from 'hono/html';
import { duration } from './format.js';

/** Read-only settings: labelled groups of values, plus the policy documents as text. */
export interface SettingsView {
  groups: { title: string; rows: [label: string, value: string][] }[];
  policies: { name: string; text: string }[];
}

export interface CloneRow {
  id: string;
  url: string;
  state: string;
  /** Epoch ms the clone started, when known. */
  startedAt: number | null;
  /** The task it is serving, if any. */
  taskId: string | null;
}

/** Live clones, the warm pool and limits, as far as the controlplane knows them. */
export interface HostsView {
  clones: CloneRow[];
  /** From hostd's /health; `failures` > 0 while it retries after failed warm clones. */
  warmPool: {
    ready: number;
    target: number;
    failures?: number;
    lastError?: string | null;
    retryAt?: string | null;
  } | null;
  limits: [label: string, value: string][];
  /** Where the numbers come from (e.g. "single local jail-service; hostd not configured"). */
  source: string;
}

export function settingsBody(view: SettingsView) {
  return html`<h1>Settings</h1>
<p class="muted">Read-only: settings come from the controlplane's configuration (CLAWDIE_* variables) and change on restart.</p>
${view.groups.map(
  (group) => html`<section class="card"><h2>${group.title}</h2><dl class="facts">
${group.rows.map(([label, value]) => html`<dt>${label}</dt><dd class="mono">${value}</dd>`)}
</dl></section>`,
)}
<section class="card"><h2>Policies</h2>
${
  view.policies.length
    ? view.policies.map(
        (policy) =>
          html`<details><summary class="mono">${policy.name}</summary><pre class="mono">${policy.text}</pre></details>`,
      )
    : html`<p class="muted">No policy files are loaded; tasks run with their own domains and result_schema only.</p>`
}
</section>`;
}

export function hostsBody(view: HostsView, now: number) {
  return html`<h1>Clones &amp; hosts</h1>
<p class="muted">${view.source}</p>
<table>
<caption class="skip">Live clones</caption>
<thead><tr><th scope="col">Clone</th><th scope="col">State</th><th scope="col">Serving</th><th scope="col" class="num">Age</th></tr></thead>
<tbody>
${view.clones.map(
  (clone) => html`<tr><td class="mono">${clone.id}<div class="muted">${clone.url}</div></td>
<td><span class="badge s-${clone.state === 'ok' ? 'ok' : 'error'}">${clone.state}</span></td>
<td>${clone.taskId ? html`<a class="mono" href="/dashboard/tasks/${clone.taskId}">${clone.taskId.slice(0, 8)}</a>` : html`<span class="muted">idle</span>`}</td>
<td class="num">${clone.startedAt === null ? '—' : duration(now - clone.startedAt)}</td></tr>`,
)}
${view.clones.length === 0 ? html`<tr><td colspan="4" class="muted">No live clones.</td></tr>` : ''}
</tbody>
</table>
<section class="card spaced"><h2>Warm pool</h2>
${view.warmPool ? html`<p>${view.warmPool.ready} ready of a target of ${view.warmPool.target}.</p>` : html`<p class="muted">No warm pool: clones are not pre-started on this host.</p>`}
${view.warmPool?.failures ? html`<p class="muted">Refilling after ${view.warmPool.failures} failed attempt(s)${view.warmPool.retryAt ? `, next at ${view.warmPool.retryAt}` : ''}: ${view.warmPool.lastError ?? 'unknown error'}</p>` : ''}
</section>
<section class="card"><h2>Limits</h2>
${view.limits.length ? html`<dl class="facts">${view.limits.map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>` : html`<p class="muted">No limits reported.</p>`}
</section>`;
}
