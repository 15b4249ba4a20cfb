import { html } from 'hono/html';
import type { ActionRecord, LogRecord, StepRecord } from '../../platform/store/task-records.js';
import { describeAction } from '../../tasks/step-summary.js';
import { badge, duration } from './format.js';
import { type Marker, markersOf } from './step-markers.js';

export interface StepCardData {
  step: StepRecord;
  actions: ActionRecord[];
  logs: LogRecord[];
  /** URL of the step's screenshot (a dashboard route or, in exports, a data URL). */
  imageSrc: string | null;
  /** The outcome to show when it differs from the row's (a `pending` step that never ended). */
  shownOutcome?: string | undefined;
}

/** A step's screenshot with its action markers drawn in an SVG in the image's own pixel space. */
export function screenshotWithMarkers(data: StepCardData) {
  const { step } = data;
  if (!data.imageSrc || !step.imageWidth || !step.imageHeight) {
    return html`<p class="muted">No screenshot for this step.</p>`;
  }
  const width = step.imageWidth;
  const height = step.imageHeight;
  const radius = Math.max(10, Math.round(Math.min(width, height) / 28));
  const markers = markersOf(step, data.actions);
  return html`<div class="shot" data-step="${step.index}">
<img src="${data.imageSrc}" width="${width}" height="${height}" alt="Screenshot the model saw at step ${step.index}${markers.length ? `, ${markers.map(describeMarker).join('; ')}` : ''}">
<svg class="overlay" viewBox="0 0 ${width} ${height}" aria-hidden="true" focusable="false">${markers.map((marker) => markerSvg(marker, radius))}</svg>
</div>`;
}

export function describeMarker(marker: Marker): string {
  const at = `(${Math.round(marker.x)}, ${Math.round(marker.y)})`;
  if (marker.kind === 'drag')
    return `drag from ${at} to (${Math.round(marker.toX)}, ${Math.round(marker.toY)})`;
  if (marker.kind === 'scroll') return `scroll ${marker.direction} at ${at}`;
  return `${marker.type.replaceAll('_', ' ')} at ${at}`;
}

const directions = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] } as const;

export function markerSvg(marker: Marker, radius: number) {
  const { x, y } = marker;
  const ring = html`<circle class="marker" cx="${x}" cy="${y}" r="${radius}"/><circle class="marker-dot" cx="${x}" cy="${y}" r="${Math.max(3, radius / 4)}"/>`;
  const data = html` data-marker="${marker.type}" data-x="${x}" data-y="${y}"`;
  if (marker.kind === 'drag') {
    return html`<g${data}>${ring}<line class="marker-line" x1="${x}" y1="${y}" x2="${marker.toX}" y2="${marker.toY}"/><circle class="marker-dot" cx="${marker.toX}" cy="${marker.toY}" r="${radius / 2}"/></g>`;
  }
  if (marker.kind === 'scroll') {
    const length = radius * 3;
    const [dx, dy] = directions[marker.direction];
    const endX = x + dx * length;
    const endY = y + dy * length;
    const head = radius * 0.8;
    const points = `${endX + dx * head},${endY + dy * head} ${endX - dy * head},${endY + dx * head} ${endX + dy * head},${endY - dx * head}`;
    return html`<g${data}>${ring}<line class="marker-line" x1="${x}" y1="${y}" x2="${endX}" y2="${endY}"/><polygon class="marker-dot" points="${points}"/></g>`;
  }
  return html`<g${data}>${ring}</g>`;
}

/** Capture / model / execute as one proportional bar plus numbers. */
export function timingSplit(step: StepRecord) {
  const parts = [
    ['capture', step.captureMs ?? 0],
    ['model', step.modelMs ?? 0],
    ['execute', step.executeMs ?? 0],
  ] as const;
  const total = parts.reduce((sum, [, ms]) => sum + ms, 0);
  let offset = 0;
  const rects = parts.map(([name, ms]) => {
    const width = total > 0 ? (ms / total) * 100 : 0;
    const rect = html`<rect class="t-${name}" x="${offset}" y="0" width="${width}" height="10"/>`;
    offset += width;
    return rect;
  });
  return html`<div class="timing" aria-label="Timing: capture ${duration(step.captureMs)}, model ${duration(step.modelMs)}, execute ${duration(step.executeMs)}">
<svg class="timing" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">${rects}</svg>
<div class="legend"><span><i class="capture"></i>capture ${duration(step.captureMs)}</span><span><i class="model"></i>model ${duration(step.modelMs)}</span><span><i class="execute"></i>execute ${duration(step.executeMs)}</span></div>
</div>`;
}

/** The step's model call: tokens (marked when estimated), images, queue / first token / total. */
export function callUsageLine(step: StepRecord) {
  const call = step.modelUsage;
  if (!call) return '';
  const estimated = call.estimated ? ' (estimated)' : '';
  const firstToken =
    call.firstTokenMs === null ? '' : ` · first token ${duration(call.firstTokenMs)}`;
  return html`<p class="muted usage">Model call: ${call.promptTokens} prompt + ${call.completionTokens} completion tokens${estimated} · ${call.images} image${call.images === 1 ? '' : 's'}, ${Math.round(call.imageBytes / 1024)} KB · queue ${duration(call.queueMs)}${firstToken} · total ${duration(call.totalMs)}</p>`;
}

function actionLine(action: ActionRecord) {
  const planned = action.action as Parameters<typeof describeAction>[0] | null;
  const model = action.modelAction as { name?: string; args?: Record<string, string> } | null;
  const modelText = model?.name
    ? `${model.name}(${Object.entries(model.args ?? {})
        .map(([key, value]) => `${key}='${value}'`)
        .join(', ')})`
    : '';
  return html`<li>${badge(action.status)} <span class="mono">${planned ? describeAction(planned) : action.type}</span>
${modelText ? html`<span class="muted mono"> ← ${modelText}</span>` : ''}
${action.errorCode ? html`<div class="error-text">${action.errorCode}: ${action.errorMessage ?? ''}</div>` : ''}</li>`;
}

/** One step of the timeline: screenshot with markers, then thought, actions, timings, messages. */
export function stepCard(data: StepCardData) {
  const { step, actions, logs } = data;
  return html`<article class="card step" id="step-${step.index}" aria-labelledby="step-${step.index}-title">
<div>${screenshotWithMarkers(data)}</div>
<div>
<h3 id="step-${step.index}-title">Step ${step.index} ${badge(data.shownOutcome ?? step.outcome)}</h3>
${step.thought ? html`<p><strong>Thought.</strong> ${step.thought}</p>` : ''}
${step.reflection ? html`<p><strong>Reflection.</strong> ${step.reflection}</p>` : ''}
<h4>Parsed actions</h4>
${actions.length ? html`<ul class="actions-list">${actions.map(actionLine)}</ul>` : html`<p class="muted">No browser action.</p>`}
${step.outcomeMessage ? html`<p class="notice">${step.outcomeMessage}</p>` : ''}
${logs
  .filter((log) => log.message !== step.outcomeMessage)
  .map((log) => html`<p class="muted">${badge(log.level)} ${log.event}: ${log.message}</p>`)}
${timingSplit(step)}
${callUsageLine(step)}
<details><summary>Raw model reply</summary><pre class="mono">${step.rawPrediction ?? '(none)'}</pre></details>
</div>
</article>`;
}
