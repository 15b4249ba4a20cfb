import { html } from 'hono/html';
import type { StoredArtifact } from '../../platform/store/artifact-files.js';
import { type TaskRecord, terminalStatuses } from '../../platform/store/task-records.js';
import type { TaskRepository } from '../../platform/store/task-repository.js';
import type { PendingApproval } from '../../tasks/live-status.js';
import { describeUsage } from '../../tasks/task-usage.js';
import { taskVerificationSchema } from '../../tasks/verification-schema.js';
import { profileOfRecord } from '../http/task-views.js';
import { approvalNotice } from './approval-notice.js';
import { badge, prettyJson, taskDuration, timestamp } from './format.js';
import { shownOutcome } from './live-page.js';
import { type StepCardData, stepCard } from './step-card.js';
import { takeoverNotice } from './takeover-notice.js';

/** Every step of a task with its actions, logs and screenshot source. */
export async function loadStepCards(
  repository: TaskRepository,
  task: TaskRecord,
  imageSrc: (step: { index: number; screenshotPath: string | null }) => string | null,
): Promise<StepCardData[]> {
  const logs = await repository.listLogs(task.id);
  const steps = await repository.listSteps(task.id);
  const actions = await Promise.all(steps.map((step) => repository.listActions(step.id)));
  return steps.map((step, index) => ({
    step,
    actions: actions[index] ?? [],
    logs: logs.filter((log) => log.stepId === step.id),
    imageSrc: step.screenshotPath ? imageSrc(step) : null,
  }));
}

/** Instruction, ids, model, times: the header facts of a task. */
export function taskFacts(task: TaskRecord, tenant: string, now: number) {
  return html`<dl class="facts">
<dt>Instruction</dt><dd>${task.instruction}</dd>
<dt>Trace id</dt><dd class="mono">${task.id}</dd>
${task.startUrl ? html`<dt>Start URL</dt><dd class="mono">${task.startUrl}</dd>` : ''}
<dt>Tenant</dt><dd>${tenant}</dd>
<dt>Model</dt><dd>${task.modelName} <span class="muted">(profile ${profileOfRecord(task.coordinateMode)})</span></dd>
<dt>Steps</dt><dd>${task.stepCount} of at most ${task.maxSteps}</dd>
<dt>Created</dt><dd>${timestamp(task.createdAt)}</dd>
<dt>Started</dt><dd>${timestamp(task.startedAt)}</dd>
<dt>Ended</dt><dd>${timestamp(task.endedAt)}</dd>
<dt>Duration</dt><dd>${taskDuration(task, now)}</dd>
<dt>Model usage</dt><dd id="usage">${task.usage ? describeUsage(task.usage) : html`<span class="muted">no model call yet</span>`}</dd>
</dl>`;
}

/** The final answer, structured result_data and error of an ended task. */
export function taskResult(task: TaskRecord) {
  if (!terminalStatuses.includes(task.status)) {
    return html`<p class="muted">The task has not ended yet.</p>`;
  }
  const data = prettyJson(task.resultData);
  return html`<dl class="facts">
<dt>Status</dt><dd>${badge(task.status)}</dd>
<dt>Final answer</dt><dd>${task.summary ?? html`<span class="muted">none</span>`}</dd>
${verificationRow(task.verification)}
${task.errorCode ? html`<dt>Error</dt><dd class="error-text"><span class="mono">${task.errorCode}</span>: ${task.errorMessage ?? ''}</dd>` : ''}
</dl>
${data ? html`<h3>result_data</h3><pre class="mono" id="result-data">${data}</pre>` : ''}`;
}

/** A finished task's verdict against its requests, with the requests it rests on. */
function verificationRow(stored: unknown) {
  const parsed = taskVerificationSchema.safeParse(stored);
  if (!parsed.success) return '';
  const { verdict, reason, evidence } = parsed.data;
  const requests = evidence.map(
    (entry) =>
      html`<li class="mono">step ${entry.step}: ${entry.method} ${entry.url} → ${entry.status ?? entry.error ?? 'no response'}</li>`,
  );
  return html`<dt>Verification</dt><dd id="verification" class="${verdict === 'unverified' ? 'error-text' : ''}"><strong>${verdict}</strong>: ${reason}${requests.length ? html`<ul>${requests}</ul>` : ''}</dd>`;
}

export interface TaskDetailView {
  task: TaskRecord;
  cards: StepCardData[];
  active: boolean;
  /** A finalised recording.mp4 exists for the task. */
  hasRecording?: boolean;
  tenant: string;
  now: number;
  /** The approval the task waits for (status `awaiting_approval`). */
  approval?: PendingApproval | null;
  /** The files the task downloaded. */
  artifacts?: readonly StoredArtifact[];
  /** Why a person is needed, while the task waits in needs_user and can be taken over. */
  takeover?: { reason: string } | null;
}

/** The task's downloaded files: name (a download link), size, type, SHA-256, source and step. */
function downloadsList(base: string, artifacts: readonly StoredArtifact[]) {
  if (artifacts.length === 0) return '';
  return html`<section class="card" aria-labelledby="downloads-title"><h2 id="downloads-title">Downloads</h2>
<table><thead><tr><th>File</th><th>Size</th><th>Type</th><th>SHA-256</th><th>Step</th><th>From</th></tr></thead><tbody>
${artifacts.map((artifact) => html`<tr><td><a href="${base}/artifacts/${encodeURIComponent(artifact.name)}" download>${artifact.name}</a></td><td>${artifact.bytes} bytes</td><td class="mono">${artifact.mime}</td><td class="mono">${artifact.sha256.slice(0, 16)}…</td><td>${artifact.step}</td><td class="mono">${artifact.source_url}</td></tr>`)}
</tbody></table></section>`;
}

/** The task page: facts, result, links to live view / replay / export, the step timeline. */
export function taskDetailBody(view: TaskDetailView) {
  const { task } = view;
  const base = `/dashboard/tasks/${task.id}`;
  return html`<h1>Task ${badge(task.status)}</h1>
<div class="controls">
${view.active ? html`<a class="button" href="${base}/live">Live view</a>` : ''}
${view.cards.length ? html`<a class="button secondary" href="${base}/replay">Replay</a>` : ''}
${view.hasRecording ? html`<a class="button secondary" href="${base}/recording.mp4">Recording</a>` : ''}
<a class="button secondary" href="${base}/export" download>Export HTML</a>
${view.active ? html`<form method="post" action="${base}/abort"><button class="danger" type="submit">Abort</button></form>` : ''}
</div>
${takeoverNotice(task.id, view.takeover)}
<section class="card" aria-labelledby="facts-title"><h2 id="facts-title">Overview</h2>${taskFacts(task, view.tenant, view.now)}</section>
${approvalNotice(view.approval ?? null)}
<section class="card" aria-labelledby="result-title"><h2 id="result-title">Result</h2>${taskResult(task)}
${task.finalScreenshotPath ? html`<details><summary>Final screen</summary><div class="shot"><img src="${base}/final.jpg" alt="The screen as the task left it"></div></details>` : ''}
</section>
${downloadsList(base, view.artifacts ?? [])}
<h2 id="timeline-title">Step timeline</h2>
${view.cards.length ? html`<ol class="timeline" aria-labelledby="timeline-title">${view.cards.map((card, index) => html`<li>${stepCard({ ...card, shownOutcome: shownOutcome(card.step.outcome, index === view.cards.length - 1, view.active, task.status) })}</li>`)}</ol>` : html`<p class="muted">No steps recorded.</p>`}`;
}
