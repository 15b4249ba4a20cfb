import { Hono } from 'hono';
import { html } from 'hono/html';
import { type SessionView, sessionView } from '../../browser/sessions/session-view.js';
import { AppError } from '../../errors.js';
import type { Principal } from '../../governance/auth/scopes.js';
import type { DashboardContext } from './dashboard-context.js';
import { badge } from './format.js';

/** The navigation entry of the page. */
export const sessionsSection = {
  id: 'sessions' as const,
  label: 'Saved sessions',
  href: '/dashboard/sessions',
};

/** Who the dashboard revokes as: the signed-in admin. */
const dashboardAdmin = (tenant: string): Principal => ({
  tenant,
  subject: 'dashboard',
  scopes: ['admin'],
  via: 'token',
});

const errors: Record<string, string> = {
  unknown: 'There is no live session profile by that name; nothing was changed.',
};

function row(view: SessionView) {
  const revoke =
    view.state === 'revoked'
      ? html`<span class="muted">—</span>`
      : html`<form method="post" action="/dashboard/sessions/${encodeURIComponent(view.tenant)}/${encodeURIComponent(view.name)}/revoke"><button type="submit" class="danger" data-revoke="${view.name}">Revoke</button></form>`;
  return html`<tr data-session="${view.tenant}/${view.name}">
<td class="mono">${view.name}</td><td>${view.tenant}</td><td>${view.origins.join(', ')}</td>
<td>${view.cookie_count}</td><td>${view.created_at.slice(0, 19).replace('T', ' ')}</td>
<td>${view.expires_at.slice(0, 19).replace('T', ' ')}</td>
<td>${view.revoked_at ? view.revoked_at.slice(0, 19).replace('T', ' ') : html`<span class="muted">—</span>`}</td>
<td>${badge(view.state)}</td><td>${revoke}</td></tr>`;
}

/** The saved session profiles (metadata only: values are never shown) with revoke buttons. */
export function sessionsBody(views: SessionView[], error?: string) {
  return html`<h1>Saved sessions</h1>
${error ? html`<p class="notice" role="alert">${error}</p>` : ''}
<p class="muted">Logins saved from a task's browser (<code>clawdie session save</code>, <code>POST /v1/sessions</code>). A task with <code>credential_mode: session</code> starts with one injected when its tenant policy allows it. Cookie and storage values are encrypted and never shown.</p>
<table class="recent">
<caption class="skip">Session profiles of every tenant</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Tenant</th><th scope="col">Origins</th><th scope="col">Cookies</th><th scope="col">Created (UTC)</th><th scope="col">Expires (UTC)</th><th scope="col">Revoked (UTC)</th><th scope="col">State</th><th scope="col"></th></tr></thead>
<tbody>
${views.map(row)}
${views.length === 0 ? html`<tr><td colspan="9" class="muted" data-sessions-empty>No session profiles are saved.</td></tr>` : ''}
</tbody>
</table>`;
}

/** `/dashboard/sessions` (list) and `POST /dashboard/sessions/:tenant/:name/revoke`. */
export function createSessionPageRoutes(context: DashboardContext): Hono {
  const app = new Hono();
  app.get('/sessions', async (c) => {
    const profiles = context.deps.sessionProfiles;
    if (!profiles) return context.notFound(c, 'No session profiles are configured.');
    const now = profiles.now();
    const views = (await profiles.list(dashboardAdmin(context.tenant))).map((meta) =>
      sessionView(meta, now),
    );
    const body = sessionsBody(views, errors[c.req.query('error') ?? '']);
    return context.render(c, 'Saved sessions', 'sessions', body);
  });
  app.post('/sessions/:tenant/:name/revoke', async (c) => {
    const profiles = context.deps.sessionProfiles;
    if (!profiles) return context.notFound(c, 'No session profiles are configured.');
    const tenant = c.req.param('tenant');
    try {
      await profiles.revoke(c.req.param('name'), dashboardAdmin(tenant), tenant);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return c.redirect('/dashboard/sessions?error=unknown', 303);
    }
    return c.redirect('/dashboard/sessions', 303);
  });
  return app;
}
