import { html } from 'hono/html';
import type { AuditRecord } from '../audit/audit-log.js';
import type { AuditVerifyResult } from '../audit/verify-chain.js';
import { timestamp } from './format.js';

export const AUDIT_PAGE_SIZE = 100;

export interface AuditView {
  rows: AuditRecord[];
  verification: AuditVerifyResult;
  /** Filter: only rows of this task. */
  taskId: string;
  /** Rows with a seq above this one are shown (paging forward). */
  afterSeq: number;
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
<p>First bad row: <a href="#audit-${bad.seq}"><strong>row ${bad.seq}</strong></a> (${bad.problem}): ${bad.message}.</p>
</section>`;
}

function href(view: Pick<AuditView, 'taskId'>, afterSeq: number): string {
  const query = new URLSearchParams();
  if (view.taskId) query.set('task', view.taskId);
  if (afterSeq > 0) query.set('after', String(afterSeq));
  const text = query.toString();
  return text ? `/dashboard/audit?${text}` : '/dashboard/audit';
}

/** The audit log: chain verification first, then a page of rows, oldest first. */
export function auditBody(view: AuditView) {
  const bad = view.verification.ok ? null : view.verification.firstBad.seq;
  const last = view.rows.at(-1)?.seq ?? view.afterSeq;
  return html`<h1>Audit log</h1>
${verificationCard(view.verification)}
<form class="filters" method="get" action="/dashboard/audit" role="search">
<label>Task trace id<input type="search" name="task" value="${view.taskId}" size="40"></label>
<button type="submit">Filter</button>
${view.taskId ? html`<a class="button secondary" href="/dashboard/audit">Clear</a>` : ''}
</form>
<table>
<caption class="skip">Audit events, oldest first</caption>
<thead><tr><th scope="col" class="num">Row</th><th scope="col">Time (UTC)</th><th scope="col">Event</th><th scope="col">Actor</th><th scope="col">Task</th><th scope="col">Data</th></tr></thead>
<tbody>
${view.rows.map(
  (
    row,
  ) => html`<tr id="audit-${row.seq}"${row.seq === bad ? html` class="bad-row" aria-label="First bad row"` : ''}>
<td class="num">${row.seq}</td><td>${timestamp(row.at)}</td><td class="mono">${row.type}</td><td class="mono">${row.actor}</td>
<td>${row.taskId ? html`<a class="mono" href="/dashboard/tasks/${row.taskId}">${row.taskId.slice(0, 8)}</a>` : ''}</td>
<td><code class="mono">${JSON.stringify(row.data)}</code></td></tr>`,
)}
${view.rows.length === 0 ? html`<tr><td colspan="6" class="muted">No audit events.</td></tr>` : ''}
</tbody>
</table>
<nav class="pager" aria-label="Pages">
${view.afterSeq > 0 ? html`<a class="button secondary" href="${href(view, 0)}">⇤ First</a>` : ''}
${view.rows.length === AUDIT_PAGE_SIZE ? html`<a class="button secondary" rel="next" href="${href(view, last)}">Later →</a>` : ''}
</nav>`;
}
