import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

export type Section = 'tasks' | 'approvals' | 'audit' | 'sessions' | 'hosts' | 'settings' | 'none';

const sections: { id: Section; label: string; href: string }[] = [
  { id: 'tasks', label: 'Tasks', href: '/dashboard' },
  { id: 'hosts', label: 'Clones & hosts', href: '/dashboard/hosts' },
  { id: 'settings', label: 'Settings', href: '/dashboard/settings' },
];

export interface PageOptions {
  title: string;
  section: Section;
  /** Extra script served from /dashboard/assets (no inline scripts: the CSP forbids them). */
  script?: string;
  /** Pages whose section is offered only when its module exists (approvals, audit). */
  extraSections?: { id: Section; label: string; href: string }[];
}

/** The page shell: skip link, top navigation with logout, one <main>. */
export function page(options: PageOptions, body: Html) {
  const nav = [...sections.slice(0, 1), ...(options.extraSections ?? []), ...sections.slice(1)];
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Clawdie</title>
<link rel="icon" type="image/svg+xml" href="/dashboard/assets/favicon.svg">
<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
${options.script ? html`<script src="/dashboard/assets/${options.script}" defer></script>` : ''}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<a class="brand" href="/dashboard">Clawdie</a>
<nav aria-label="Dashboard"><ul>
${nav.map(
  (item) =>
    html`<li><a href="${item.href}"${item.id === options.section ? html` aria-current="page"` : ''}>${item.label}</a></li>`,
)}
</ul></nav>
<form method="post" action="/dashboard/logout"><button type="submit">Log out</button></form>
</header>
<main id="main">
${body}
</main>
</body>
</html>`;
}

/** A page without navigation (login, errors before login). */
export function barePage(title: string, body: Html) {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Clawdie</title>
<link rel="icon" type="image/svg+xml" href="/dashboard/assets/favicon.svg">
<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
</head>
<body><main id="main">${body}</main></body>
</html>`;
}

/** Security headers of every dashboard page: nothing external, nothing inline, no framing. */
export const pageHeaders = {
  'content-security-policy':
    "default-src 'none'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};
