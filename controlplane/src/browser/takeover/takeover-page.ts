import { html } from 'hono/html';
import type { ActiveTakeover } from './takeover-registry.js';

/** The page's styles (served from /takeover/assets; the CSP allows no inline style). */
export const takeoverCss = `body{margin:0;font:15px/1.5 system-ui,sans-serif;background:#f8fafc;color:#111827}
main{max-width:1400px;margin:0 auto;padding:16px}
.banner{background:#b91c1c;color:#fff;padding:10px 16px;border-radius:8px;font-weight:600;margin:0 0 12px}
.banner.ended{background:#374151}
.screen{display:block;width:100%;max-width:1280px;border:3px solid #b91c1c;border-radius:6px;cursor:crosshair;outline:none}
.screen:focus{border-color:#f59e0b}
form{margin:12px 0;display:flex;flex-wrap:wrap;gap:8px;align-items:flex-start}
textarea{flex:1;max-width:800px;min-height:3em;font:inherit}
fieldset{border:1px solid #d1d5db;border-radius:6px;display:flex;flex-direction:column;gap:4px}
fieldset input{font:inherit;width:22em}
.error{flex-basis:100%;margin:0;color:#b91c1c;font-weight:600}
button{font:inherit;padding:8px 18px;border-radius:6px;border:0;background:#1d4ed8;color:#fff;cursor:pointer}
.muted{color:#6b7280}`;

/**
 * The interactive live view: banner, screen (focusable: keys go to the page), Hand back with an
 * optional "Save this login as" profile name and its origins (prefilled with `origins`).
 */
export function takeoverPage(takeover: ActiveTakeover, user: string, origins = '') {
  const base = `/takeover/${takeover.taskId}`;
  const until = new Date(takeover.deadline).toISOString();
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Take over · Clawdie</title>
<link rel="stylesheet" href="/takeover/assets/takeover.css"></head>
<body><main data-takeover="${takeover.taskId}">
<p class="banner" data-takeover-banner role="status">You are in control of this task's browser (${takeover.reason.replaceAll('_', ' ')}). The model is paused until you hand back.</p>
<p class="muted">Signed in as ${user}. Click the screen to type into the page; what you type goes only to the page. Hand back by ${until}.</p>
<img class="screen" data-takeover-screen tabindex="0" draggable="false" src="${base}/screencast" alt="The task's browser: click and type here">
<form data-takeover-handback><textarea name="note" maxlength="500" placeholder="What did you do? This note is sent to the model (optional)."></textarea>
<fieldset><legend>Save this login (optional)</legend>
<label>Save this login as <input name="session_name" maxlength="64" autocomplete="off" placeholder="profile name, e.g. shop"></label>
<label>Origins to save <input name="session_origins" maxlength="2000" autocomplete="off" value="${origins}" placeholder="https://example.com, https://login.example.com"></label>
</fieldset>
<button type="submit">Hand back</button>
<p class="error" data-takeover-error role="alert" hidden></p></form>
</main><script src="/takeover/assets/takeover.js"></script></body></html>`;
}

/** A plain page for a refused link or an ended takeover. */
export function takeoverMessage(title: string, text: string) {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} · Clawdie</title>
<link rel="stylesheet" href="/takeover/assets/takeover.css"></head>
<body><main><h1>${title}</h1><p>${text}</p></main></body></html>`;
}

/** The link's landing page: what it is for, and one button that spends it. */
export function takeoverConfirm(taskId: string, token: string, reason: string) {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Take over · Clawdie</title>
<link rel="stylesheet" href="/takeover/assets/takeover.css"></head>
<body><main><h1>Take over task ${taskId}</h1><p>The task needs a person (${reason.replaceAll('_', ' ')}). The link works once.</p>
<form method="post" action="/takeover/${taskId}/open" data-takeover-open><input type="hidden" name="t" value="${token}"><button type="submit">Take control</button></form>
</main></body></html>`;
}
