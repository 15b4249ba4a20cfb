import { html } from 'hono/html';
import { type AuditRecord, auditEventTypes } from '../../governance/audit/audit-log.js';
import type { AuditVerifyResult } from '../../governance/audit/verify-chain.js';
import { timestamp } from './format.js';

export const AUDIT_PAGE_SIZE = 50;

/**
 * One line of JSON with a space after each `,` and `:` (between tokens only, never inside a
 * string), so a narrow column wraps it between values rather than inside a word.
 */
export function spacedJson(value: unknown): string {
  const text = JSON.stringify(value ?? null, null, 1);
  return text.replace(/([[{])\n\s*|\n\s*([\]}])|\n\s*/g, (_, open, close) => open ?? close ?? ' ');
}

/** The event types offered in the filter: every type the audit log records. */
export const auditTypes = auditEventTypes;

/** The page's filters as typed in the form (times as `YYYY-MM-DDTHH:MM`, UTC). */
export interface AuditFilters {
  task: string;
  tenant: string;
  type: string;
  from: string;
  to: string;
}

export interface AuditView {
  /** Newest first. */
  rows: AuditRecord[];
  verification: AuditVerifyResult;
  filters: AuditFilters;
  /** Rows below this seq are shown (paging to older rows); 0: the newest. */
  beforeSeq: number;
  /** Whether older rows match the filters. */
  hasOlder: boolean;
}

function keyNote(result: Extract<AuditVerifyResult, { ok: true }>): string {
  if (result.unkeyedRows === undefined)
    return ' (no audit key: rows cut from the end are not detected).';
  const unkeyed = result.unkeyedRows
    ? ` Rows 1–${result.unkeyedRows} predate the key: hash-chained only, anchored by row ${result.unkeyedRows + 1}.`
    : '';
  return `. Rows are MACed with the audit key kept outside the database; the end is checked against the head record kept with it.${unkeyed}`;
}

function verificationCard(result: AuditVerifyResult) {
  if (result.ok) {
    return html`<section class="card" aria-labelledby="chain-title" data-audit-chain="ok">
<h2 id="chain-title">Hash chain <span class="badge s-ok">intact</span></h2>
<p>${result.rows} rows verified. Head: row ${result.headSeq}, <span class="mono">${result.headHash.slice(0, 16)}…</span>${keyNote(result)}</p>
</section>`;
  }
  const bad = result.firstBad;
  return html`<section class="card notice" role="alert" aria-labelledby="chain-title" data-audit-chain="broken" data-first-bad="${bad.seq}">
<h2 id="chain-title">Hash chain <span class="badge s-error">tampered</span></h2>
<p>First bad row: <a href="${badRowHref(bad.seq)}"><strong>row ${bad.seq}</strong></a> (${bad.problem}): ${bad.message}.</p>
</section>`;
}

function href(filters: AuditFilters, beforeSeq: number, hash = ''): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
  if (beforeSeq > 0) query.set('before', String(beforeSeq));
  const text = query.toString();
  return `/dashboard/audit${text ? `?${text}` : ''}${hash}`;
}

const none: AuditFilters = { task: '', tenant: '', type: '', from: '', to: '' };

function filterForm(filters: AuditFilters) {
  const active = Object.values(filters).some(Boolean);
  return html`<form class="filters" method="get" action="/dashboard/audit" role="search" data-audit-filters>
<label>Task trace id<input type="search" name="task" value="${filters.task}" size="30"></label>
<label>Tenant<input type="search" name="tenant" value="${filters.tenant}" size="12"></label>
<label>Event<select name="type"><option value="">any</option>${auditTypes.map((type) => html`<option${type === filters.type ? html` selected` : ''}>${type}</option>`)}</select></label>
<label>From (UTC)<input type="datetime-local" name="from" value="${filters.from}"></label>
<label>To (UTC)<input type="datetime-local" name="to" value="${filters.to}"></label>
<button type="submit">Filter</button>
${active ? html`<a class="button secondary" href="/dashboard/audit">Clear</a>` : ''}
</form>`;
}

/** The audit log: chain verification first, then filters and a page of rows, newest first. */
export function auditBody(view: AuditView) {
  const bad = view.verification.ok ? null : view.verification.firstBad.seq;
  const oldest = view.rows.at(-1)?.seq ?? 0;
  return html`<h1>Audit log</h1>
${verificationCard(view.verification)}
${filterForm(view.filters)}
<table class="cards" data-audit-rows>
<caption class="skip">Audit events, newest first</caption>
<thead><tr><th scope="col" class="num">Row</th><th scope="col">Time (UTC)</th><th scope="col">Event</th><th scope="col">Actor</th><th scope="col">Task</th><th scope="col">Data</th></tr></thead>
<tbody>
${view.rows.map(
  (
    row,
  ) => html`<tr id="audit-${row.seq}"${row.seq === bad ? html` class="bad-row" aria-label="First bad row"` : ''}>
<td class="num" data-label="Row">${row.seq}</td><td data-label="Time (UTC)">${timestamp(row.at)}</td><td class="mono" data-label="Event">${row.type}</td><td class="mono" data-label="Actor">${row.actor}</td>
<td data-label="Task">${row.taskId ? html`<a class="mono" href="/dashboard/tasks/${row.taskId}">${row.taskId.slice(0, 8)}</a>` : ''}</td>
<td data-label="Data"><code class="mono json" data-audit-data>${spacedJson(row.data)}</code></td></tr>`,
)}
${view.rows.length === 0 ? html`<tr><td colspan="6" class="muted">No audit events${Object.values(view.filters).some(Boolean) ? ' match these filters' : ''}.</td></tr>` : ''}
</tbody>
</table>
<nav class="pager" aria-label="Pages">
${view.beforeSeq > 0 ? html`<a class="button secondary" rel="first" href="${href(view.filters, 0)}">⇤ Newest</a>` : ''}
${view.hasOlder ? html`<a class="button secondary" rel="next" href="${href(view.filters, oldest)}">Older →</a>` : ''}
</nav>`;
}

/** Where the first bad row is listed (its page without filters, newest first). */
export function badRowHref(seq: number): string {
  return href(none, seq + 1, `#audit-${seq}`);
}
