import { Hono } from 'hono';
import { html } from 'hono/html';
import { streamTaskEvents } from '../http/task-event-stream.js';
import { AdminSessions, requireAdmin } from './admin-auth.js';
import { dashboardAssets } from './assets.js';
import { AUDIT_PAGE_SIZE, auditBody } from './audit-page.js';
import {
  auditQuerySchema,
  type DashboardContext,
  type DashboardDeps,
} from './dashboard-context.js';
import { page, pageHeaders } from './layout.js';
import { createLoginRoutes } from './login-routes.js';
import { relayScreencast } from './screencast-relay.js';
import { hostsBody, settingsBody } from './settings-pages.js';
import { createTaskPageRoutes } from './task-page-routes.js';

/**
 * The admin dashboard, mounted at `/dashboard`: server-rendered pages behind an admin session
 * cookie. Static assets and the login form are public; everything else needs the session.
 */
export type { DashboardDeps, DashboardOptions } from './dashboard-context.js';

export function createDashboardRoutes(deps: DashboardDeps): Hono {
  const ttlMs = deps.sessionTtlMs ?? 12 * 60 * 60 * 1000;
  const now = deps.now ?? Date.now;
  const sessions = new AdminSessions(ttlMs, now);
  const extraSections = deps.audit
    ? [{ id: 'audit' as const, label: 'Audit log', href: '/dashboard/audit' }]
    : [];
  const context: DashboardContext = {
    deps,
    tenant: deps.tenant ?? 'default',
    now,
    render: (c, title, section, body, script) =>
      c.html(
        page({ title, section, extraSections, ...(script ? { script } : {}) }, body),
        200,
        pageHeaders,
      ),
    notFound: (c, what) =>
      c.html(
        page(
          { title: 'Not found', section: 'none' },
          html`<h1>Not found</h1><p>${what}</p><p><a href="/dashboard">All tasks</a></p>`,
        ),
        404,
        pageHeaders,
      ),
    requireTask: (c) => deps.repository.getTask(c.req.param('id') ?? ''),
  };

  const app = new Hono();
  app.get('/assets/:name', (c) => {
    const asset = dashboardAssets[c.req.param('name')];
    if (!asset) return c.text('no such asset', 404);
    return c.body(asset.body, 200, {
      'content-type': asset.type,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
    });
  });
  app.route('/', createLoginRoutes({ verifyAdmin: deps.verifyAdmin, sessions, ttlMs }));
  app.use('*', requireAdmin({ sessions }));
  app.route('/', createTaskPageRoutes(context));
  app.get('/tasks/:id/events', (c) => {
    const task = context.requireTask(c);
    if (!task) return c.text('no such task', 404);
    return streamTaskEvents(c, task, deps);
  });
  app.get('/tasks/:id/screencast', async (c) => {
    const task = context.requireTask(c);
    if (!task || !deps.tasks.isActive(task.id) || !deps.screencast)
      return c.text('no live feed for this task', 404);
    return relayScreencast(c, task.id, deps.screencast, deps);
  });
  app.get('/audit', (c) => {
    if (!deps.audit) return context.notFound(c, 'No audit log is configured.');
    const query = auditQuerySchema.parse(c.req.query());
    const taskId = query.task ?? '';
    const rows = deps.audit.list({
      limit: AUDIT_PAGE_SIZE,
      ...(query.after ? { afterSeq: query.after } : {}),
      ...(taskId ? { taskId } : {}),
    });
    const body = auditBody({
      rows,
      verification: deps.audit.verify(),
      taskId,
      afterSeq: query.after ?? 0,
    });
    return context.render(c, 'Audit log', 'audit', body);
  });
  app.get('/settings', (c) => {
    const view = deps.settings?.() ?? { groups: [], policies: [] };
    return context.render(c, 'Settings', 'settings', settingsBody(view));
  });
  app.get('/hosts', async (c) => {
    const view = (await deps.hosts?.()) ?? {
      clones: [],
      warmPool: null,
      limits: [],
      source: 'No host information is configured.',
    };
    return context.render(c, 'Clones & hosts', 'hosts', hostsBody(view, now()));
  });
  app.notFound((c) => context.notFound(c, `There is no dashboard page at ${c.req.path}.`));
  return app;
}
