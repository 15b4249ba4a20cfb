import { html } from 'hono/html';
import type { TaskRecord } from '../../platform/store/task-records.js';
import type { ActiveTakeover } from './takeover-registry.js';

export { takeoverCss } from './takeover-css.js';

const head = (title: string) =>
  html`<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Clawdie</title><link rel="stylesheet" href="/takeover/assets/takeover.css">`;

/**
 * How long the supervisor has, as the server sees it now; the page's script rewrites it in the
 * supervisor's local time ("expires in 4 min (12:34)") from `data-takeover-left-ms`.
 */
function deadlineText(takeover: ActiveTakeover, now: number, what: string) {
  const leftMs = Math.max(0, takeover.deadline - now);
  const minutes = Math.max(1, Math.round(leftMs / 60_000));
  return html`<span data-takeover-deadline data-takeover-left-ms="${leftMs}">${what} within ${minutes} min</span>`;
}

/**
 * The interactive live view: banner, screen (focusable: keys go to the page), "Type into the page"
 * (a field with Send and Enter, Backspace and Tab keys: a phone has no keyboard to press while the
 * screen has focus), Hand back with an optional "Save this login as" profile name and its origins
 * (prefilled with `origins`).
 */
export function takeoverPage(
  takeover: ActiveTakeover,
  user: string,
  origins = '',
  now = Date.now(),
) {
  const base = `/takeover/${takeover.taskId}`;
  return html`<!doctype html>
<html lang="en"><head>${head('Take over')}</head>
<body><main class="takeover" data-takeover="${takeover.taskId}">
<p class="banner" data-takeover-banner role="status">You are in control of this task's browser (${takeover.reason.replaceAll('_', ' ')}). The model is paused until you hand back.</p>
<p class="muted info" data-takeover-info>Signed in as ${user}. Tap or click the screen to act on the page; type while it has focus or in the field under it (only the page gets it). Hand back when done: ${deadlineText(takeover, now, 'hand back')}.</p>
<div class="stage"><img class="screen" data-takeover-screen tabindex="0" draggable="false" src="${base}/screencast" alt="The task's browser: click and type here"></div>
<p class="error" data-takeover-input-error role="alert" hidden></p>
<form class="typer" data-takeover-type aria-label="Type into the page"><span class="typed"><input name="type_text" maxlength="10000" autocomplete="off" autocapitalize="off" autocorrect="off" spellcheck="false" enterkeyhint="send" aria-label="Text to type into the page" placeholder="Type here"><button type="submit">Send</button></span>
<span class="keys"><button type="button" data-takeover-key="Enter">Enter</button><button type="button" data-takeover-key="Backspace" aria-label="Backspace" title="Backspace">⌫</button><button type="button" data-takeover-key="Tab">Tab</button></span></form>
<form class="panel" data-takeover-handback><textarea name="note" rows="2" maxlength="500" placeholder="What did you do? This note is sent to the model (optional)."></textarea>
<fieldset><legend>Save this login (optional)</legend>
<label>Save this login as <input name="session_name" maxlength="64" autocomplete="off" placeholder="profile name, e.g. shop"></label>
<label>Origins to save <input name="session_origins" maxlength="2000" autocomplete="off" value="${origins}" placeholder="https://example.com, https://login.example.com"></label>
</fieldset>
<button type="submit">Hand back</button>
<p class="error" data-takeover-error role="alert" hidden></p>
<p class="done" data-takeover-done role="status" hidden></p></form>
</main><script src="/takeover/assets/takeover.js"></script></body></html>`;
}

/** A plain page for a refused link or an ended takeover. */
export function takeoverMessage(title: string, text: string) {
  return html`<!doctype html><html lang="en"><head>${head(title)}</head>
<body><main><h1>${title}</h1><p>${text}</p></main></body></html>`;
}

/**
 * The link's landing page: what the task is, what the model asked for, its screen now, and one
 * button that spends the link (a GET never does: link previews must not).
 */
export function takeoverConfirm(options: {
  task: TaskRecord;
  token: string;
  takeover: ActiveTakeover;
  now: number;
}) {
  const { task, token, takeover } = options;
  const base = `/takeover/${task.id}`;
  const reason = takeover.reason.replaceAll('_', ' ');
  const summary = takeover.summary?.trim();
  return html`<!doctype html><html lang="en"><head>${head('Take over')}</head>
<body><main class="confirm" data-takeover-confirm="${task.id}"><h1>Take over this task?</h1>
<p class="banner ended">The task needs a person (${reason}). The model waits until you hand back: ${deadlineText(takeover, options.now, 'hand back')}. This link works once.</p>
<dl class="facts">
<dt>Task</dt><dd data-takeover-instruction>${task.instruction}</dd>
${summary ? html`<dt>${takeover.reason === 'call_user' ? 'The model asks' : 'Seen on the page'}</dt><dd class="question" data-takeover-question>${summary}</dd>` : ''}
<dt>Trace id</dt><dd class="mono">${task.id}</dd>
</dl>
${takeover.screenshot ? html`<img class="preview" data-takeover-preview width="1280" height="800" src="${base}/open/screen.jpg?t=${token}" alt="The task's screen now">` : ''}
<form method="post" action="${base}/open" data-takeover-open><input type="hidden" name="t" value="${token}"><button type="submit">Take control</button></form>
</main><script src="/takeover/assets/takeover.js"></script></body></html>`;
}
