import { html } from 'hono/html';
import { duration } from './format.js';
import type { PolicySummary } from './policy-summary.js';

/** Read-only settings: labelled groups of values, plus the loaded policies' key rules. */
export interface SettingsView {
  groups: { title: string; rows: [label: string, value: string][] }[];
  policies: PolicySummary[];
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
  /** Registered jail hosts (CLAWDIE_FLEET=on), with load and health; absent otherwise. */
  hosts?: HostRow[];
}

export interface HostRow {
  name: string;
  url: string;
  state: string;
  health: 'up' | 'down' | 'unknown';
  clones: number;
  capacity: number;
  labels: Record<string, string>;
  heartbeatAt: number | null;
  /** The heartbeat's age by the shared store's clock (see `HostRecord`); else `now` judges it. */
  heartbeatAgeMs?: number | null;
  lastError: string | null;
}

function hostsTable(hosts: readonly HostRow[], now: number) {
  return html`<table data-hosts="${hosts.length}">
<caption>Jail hosts</caption>
<thead><tr><th scope="col">Host</th><th scope="col">Health</th><th scope="col" class="num">Load</th><th scope="col">Labels</th><th scope="col" class="num">Heartbeat</th></tr></thead>
<tbody>
${hosts.map(
  (
    host,
  ) => html`<tr data-host="${host.name}"><td class="mono">${host.name}<div class="muted">${host.url}</div></td>
<td><span class="badge s-${host.health === 'up' ? 'ok' : 'error'}">${host.health}</span>${host.state === 'active' ? '' : html` <span class="badge">${host.state}</span>`}${host.lastError ? html`<div class="muted">${host.lastError}</div>` : ''}</td>
<td class="num">${host.clones}/${host.capacity}</td>
<td class="mono">${
    Object.entries(host.labels)
      .map(([key, value]) => `${key}=${value}`)
      .join(' ') || '—'
  }</td>
<td class="num">${host.heartbeatAt === null ? '—' : `${duration(host.heartbeatAgeMs ?? now - host.heartbeatAt)} ago`}</td></tr>`,
)}
${hosts.length === 0 ? html`<tr><td colspan="5" class="muted">No jail hosts registered (clawdie hosts add).</td></tr>` : ''}
</tbody>
</table>`;
}

/** The warm pool as hostd reports it now (read at each page view, never cached). */
function warmPoolSection(hosts: HostsView | null, withSource = false) {
  const pool = hosts?.warmPool ?? null;
  return html`<section class="card spaced" data-warm-pool="${pool ? `${pool.ready}/${pool.target}` : 'none'}"><h2>Warm pool</h2>
${pool ? html`<p>${pool.ready} ready of a target of ${pool.target}.</p>` : html`<p class="muted">No warm pool: clones are not pre-started on this host.</p>`}
${pool?.failures ? html`<p class="muted" data-warm-pool-failures="${pool.failures}">Refilling after ${pool.failures} failed attempt(s)${pool.retryAt ? `, next at ${pool.retryAt}` : ''}: ${pool.lastError ?? 'unknown error'}</p>` : ''}
${hosts && withSource ? html`<p class="muted">${hosts.source}</p>` : ''}
</section>`;
}

function policyCard(policy: PolicySummary) {
  return html`<section class="card" data-policy="${policy.tenant}"><h3 class="mono">${policy.name}</h3>
<p class="muted">Tenant <span class="mono">${policy.tenant}</span></p>
<dl class="facts">${policy.rules.map(([label, value]) => html`<dt>${label}</dt><dd class="mono" data-rule="${label}">${value}</dd>`)}</dl>
</section>`;
}

export function settingsBody(view: SettingsView, hosts: HostsView | null = null) {
  return html`<h1>Settings</h1>
<p class="muted">Read-only: settings come from the controlplane's configuration (CLAWDIE_* variables) and change on restart.</p>
${view.groups.map(
  (group) => html`<section class="card"><h2>${group.title}</h2><dl class="facts">
${group.rows.map(([label, value]) => html`<dt>${label}</dt><dd class="mono">${value}</dd>`)}
</dl></section>`,
)}
${warmPoolSection(hosts, true)}
<section class="card" aria-labelledby="policies-title"><h2 id="policies-title">Policies</h2>
${
  view.policies.length
    ? html`<p class="muted">Enforced for every task: a tenant without its own file gets <span class="mono">default</span>.</p>${view.policies.map(policyCard)}`
    : html`<p class="muted">No policy files are loaded; tasks run with their own domains and result_schema only.</p>`
}
</section>`;
}

export function hostsBody(view: HostsView, now: number) {
  return html`<h1>Clones &amp; hosts</h1>
<p class="muted">${view.source}</p>
${view.hosts ? hostsTable(view.hosts, now) : ''}
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
${warmPoolSection(view)}
<section class="card"><h2>Limits</h2>
${view.limits.length ? html`<dl class="facts">${view.limits.map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>` : html`<p class="muted">No limits reported.</p>`}
</section>`;
}
