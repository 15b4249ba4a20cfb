// What an approval asks about, from the record's `detail` as the policy gate wrote it: the action
// with its coordinates, the page URL, the typed text (secret placeholders as placeholders, never a
// value; invisible characters escaped) and the target drawn on the screenshot.
import { html } from 'hono/html';
import { landingFacts } from '../../governance/approvals/approval-landing.js';
import type { ApprovalRecord } from '../../governance/approvals/approval-types.js';
import { describeMarker, markerSvg } from './step-card.js';
import { type Marker, markerOfAction } from './step-markers.js';

/**
 * `text` with every character that does not show (controls, format characters such as U+200B,
 * separators other than the plain space, unassigned and private-use code points, lone
 * surrogates) written as `\u{hex}`; a backslash is doubled so the escapes cannot be forged.
 */
export function escapeInvisible(text: string): string {
  return text.replace(/\\|(?! )[\p{C}\p{Z}]/gu, (char) =>
    char === '\\' ? '\\\\' : `\\u{${(char.codePointAt(0) ?? 0).toString(16)}}`,
  );
}

interface Screen {
  imageWidth: number;
  imageHeight: number;
  devicePixelRatio: number;
}

function screenOf(detail: Record<string, unknown>): Screen | null {
  const screen = detail.screen as Partial<Screen> | undefined;
  const ok = (value: unknown) => typeof value === 'number' && value > 0;
  if (!screen || !ok(screen.imageWidth) || !ok(screen.imageHeight) || !ok(screen.devicePixelRatio))
    return null;
  return screen as Screen;
}

function actionOf(detail: Record<string, unknown>): Record<string, unknown> | null {
  const action = detail.action;
  return action && typeof action === 'object' ? (action as Record<string, unknown>) : null;
}

/** The action in words, e.g. `click at (640, 400)` (CSS pixels, as the browser receives it). */
export function actionText(action: Record<string, unknown>): string {
  const type = String(action.type ?? 'action');
  const { type: _type, ...rest } = action;
  const point = (p: unknown) => {
    const { x, y } = (p ?? {}) as { x?: unknown; y?: unknown };
    return `(${x}, ${y})`;
  };
  if (typeof action.x === 'number' && typeof action.y === 'number') {
    const extra = type === 'scroll' ? ` ${String(action.direction ?? 'down')}` : '';
    return `${type}${extra} at ${point(action)}`;
  }
  if (type === 'drag') return `drag from ${point(action.from)} to ${point(action.to)}`;
  if (type === 'type') {
    const secrets = Array.isArray(action.secrets) ? ` (secrets: ${action.secrets.join(', ')})` : '';
    return `type ${String(action.chars ?? '?')} characters${secrets}`;
  }
  const args = Object.entries(rest)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
  return args ? `${type} ${args}` : type;
}

/** The action, URL and typed text as facts for the card. */
export function approvalFacts(record: ApprovalRecord) {
  const action = actionOf(record.detail);
  const url = typeof record.detail.url === 'string' ? record.detail.url : null;
  const text = typeof record.detail.text === 'string' ? record.detail.text : null;
  const question = typeof record.detail.question === 'string' ? record.detail.question : null;
  const { frame, field } = landingFacts(record.detail);
  return html`${action ? html`<dt>Action</dt><dd class="mono" data-approval-action>${actionText(action)}</dd>` : ''}
${url ? html`<dt>Page</dt><dd class="mono" data-approval-url>${url}</dd>` : ''}
${frame ? html`<dt>Frame</dt><dd class="mono" data-approval-frame>${frame}</dd>` : ''}
${field ? html`<dt>Field</dt><dd class="mono" data-approval-field>${field}</dd>` : ''}
${text !== null ? html`<dt>Text</dt><dd><code class="mono" data-approval-text>${escapeInvisible(text)}</code></dd>` : ''}
${question ? html`<dt>Question</dt><dd data-approval-question>${escapeInvisible(question)}</dd>` : ''}`;
}

/** The target of the action, in the screenshot's pixels; null when it has no screen point. */
export function approvalMarker(record: ApprovalRecord): { marker: Marker; screen: Screen } | null {
  const action = actionOf(record.detail);
  const screen = screenOf(record.detail);
  if (!action || !screen) return null;
  const marker = markerOfAction(action, screen.devicePixelRatio);
  return marker ? { marker, screen } : null;
}

/** The approval's screenshot with its target drawn like a step's marker. */
export function approvalShot(record: ApprovalRecord) {
  const src = `/dashboard/approvals/${record.id}/screenshot`;
  const target = approvalMarker(record);
  if (!target) {
    return html`<a class="approval-shot" href="${src}"><img src="${src}" alt="The screen when approval was requested" loading="lazy"></a>`;
  }
  const { marker, screen } = target;
  const radius = Math.max(10, Math.round(Math.min(screen.imageWidth, screen.imageHeight) / 28));
  return html`<a class="approval-shot" href="${src}"><span class="shot">
<img src="${src}" width="${screen.imageWidth}" height="${screen.imageHeight}" alt="The screen when approval was requested, ${describeMarker(marker)}" loading="lazy">
<svg class="overlay" viewBox="0 0 ${screen.imageWidth} ${screen.imageHeight}" aria-hidden="true" focusable="false">${markerSvg(marker, radius)}</svg></span></a>`;
}
