import { Hono } from 'hono';
import { html } from 'hono/html';
import { AppError } from '../../errors.js';
import { readForm } from '../http/error-handler.js';
import type { ForwardMode } from '../http/replica-forward/forward-to-owner.js';
import { streamTaskEvents } from '../http/task-event-stream.js';
import { dashboardPrincipal, requireAdmin } from './admin-auth.js';
import { MemoryAdminSessions, StoredAdminSessions } from './admin-sessions.js';
import {
  approvalsBody,
  createApprovalScreens,
  DASHBOARD_ANSWERER,
  RECENT_APPROVALS,
} from './approvals-page.js';
import { dashboardAssets } from './assets.js';
import { AUDIT_PAGE_SIZE, auditBody } from './audit-page.js';
import {
  auditQuerySchema,
  type DashboardContext,
  type DashboardDeps,
  utcMs,
} from './dashboard-context.js';
import { page, pageHeaders } from './layout.js';
import { createLoginRoutes } from './login-routes.js';
import { relayScreencast } from './screencast-relay.js';
import { createSessionPageRoutes, sessionsSection } from './sessions-page.js';
import { hostsBody, settingsBody } from './settings-pages.js';
import { createTaskPageRoutes } from './task-page-routes.js';

/**
 * The admin dashboard, mounted at `/dashboard`: server-rendered pages behind an admin session
 * cookie. Static assets and the login form are public; everything else needs the session.
 */
export type { DashboardDeps, DashboardOptions } from './dashboard-context.js';

const approvalErrors: Record<string, string> = {
  closed: 'That approval was already answered or has expired; nothing was changed.',
  unknown: 'There is no such approval.',
};

/** The task pages served by the replica that runs the task (its feed, takeover, files). */
const forwardedPages: [string, ForwardMode][] = [
  ['/tasks/:id', 'page'],
  ['/tasks/:id/live', 'page'],
  ['/tasks/:id/screencast', 'owner'],
  ['/tasks/:id/takeover', 'owner'],
  ['/tasks/:id/steps/:index/screenshot.jpg', 'files'],
  ['/tasks/:id/final.jpg', 'files'],
  ['/tasks/:id/artifacts/:name', 'files'],
  ['/tasks/:id/recording.mp4', 'files'],
  ['/tasks/:id/export', 'files'],
];
const forwardOf = (deps: DashboardDeps, mode: ForwardMode) =>
  deps.forward ? [deps.forward(mode, () => dashboardPrincipal)] : [];

export function createDashboardRoutes(deps: DashboardDeps): Hono {
  const ttlMs = deps.sessionTtlMs ?? 12 * 60 * 60 * 1000;
  const now = deps.now ?? Date.now;
  const sessions = deps.sessionStore
    ? new StoredAdminSessions(deps.sessionStore, ttlMs, now)
    : new MemoryAdminSessions(ttlMs, now);
  const extraSections = [
    ...(deps.approvals
      ? [{ id: 'approvals' as const, label: 'Approvals', href: '/dashboard/approvals' }]
      : []),
    ...(deps.audit ? [{ id: 'audit' as const, label: 'Audit log', href: '/dashboard/audit' }] : []),
    ...(deps.sessionProfiles ? [sessionsSection] : []),
  ];
  const screens = createApprovalScreens();
  deps.approvals?.attach(screens);
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
    requireTask: async (c) => deps.repository.getTask(c.req.param('id') ?? ''),
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
  app.route(
    '/',
    createLoginRoutes({
      verifyAdmin: deps.verifyAdmin,
      sessions,
      ttlMs,
      failures: deps.loginFailures,
    }),
  );
  app.use('*', requireAdmin({ sessions }));
  for (const [path, mode] of forwardedPages) app.use(path, ...forwardOf(deps, mode));
  app.route('/', createTaskPageRoutes(context));
  app.route('/', createSessionPageRoutes(context));
  app.get('/tasks/:id/events', async (c) => {
    const task = await context.requireTask(c);
    if (!task) return c.text('no such task', 404);
    return streamTaskEvents(c, task, deps);
  });
  app.get('/tasks/:id/screencast', async (c) => {
    const task = await context.requireTask(c);
    const feed = task && deps.tasks.isActive(task.id) ? deps.screencast?.(task.id) : null;
    if (!task || !feed) return c.text('no live feed for this task', 404);
    return relayScreencast(c, task.id, feed, deps);
  });
  app.get('/audit', async (c) => {
    if (!deps.audit) return context.notFound(c, 'No audit log is configured.');
    const { before, ...filters } = auditQuerySchema.parse(c.req.query());
    const since = utcMs(filters.from);
    const until = utcMs(filters.to, true);
    const rows = await deps.audit.list({
      limit: AUDIT_PAGE_SIZE + 1,
      newestFirst: true,
      ...(before ? { beforeSeq: before } : {}),
      ...(filters.task ? { taskId: filters.task } : {}),
      ...(filters.tenant ? { tenant: filters.tenant } : {}),
      ...(filters.type ? { type: filters.type } : {}),
      ...(since !== undefined ? { since } : {}),
      ...(until !== undefined ? { until } : {}),
    });
    const body = auditBody({
      rows: rows.slice(0, AUDIT_PAGE_SIZE),
      hasOlder: rows.length > AUDIT_PAGE_SIZE,
      verification: await deps.audit.verify(),
      filters,
      beforeSeq: before ?? 0,
    });
    return context.render(c, 'Audit log', 'audit', body);
  });
  app.get('/approvals', async (c) => {
    if (!deps.approvals) return context.notFound(c, 'No approvals are configured.');
    const pending = (await deps.approvals.list({ status: 'pending', limit: 200 })).sort(
      (a, b) => a.requestedAt - b.requestedAt,
    );
    const recent = (await deps.approvals.list({ limit: 200 }))
      .filter((record) => record.status !== 'pending')
      .sort((a, b) => (b.answeredAt ?? 0) - (a.answeredAt ?? 0))
      .slice(0, RECENT_APPROVALS);
    const error = approvalErrors[c.req.query('error') ?? ''];
    const body = approvalsBody({
      pending,
      recent,
      now: now(),
      hasScreenshot: (id) => screens.get(id) !== null,
      error,
    });
    return context.render(c, 'Approvals', 'approvals', body);
  });
  app.get('/approvals/:id/screenshot', (c) => {
    const shot = screens.get(c.req.param('id'));
    if (!shot) return c.text('no screenshot for this approval', 404);
    return c.body(new Uint8Array(shot), 200, {
      'content-type': 'image/jpeg',
      'cache-control': 'private, max-age=300',
      'x-content-type-options': 'nosniff',
    });
  });
  app.post('/approvals/:id', async (c) => {
    if (!deps.approvals) return context.notFound(c, 'No approvals are configured.');
    const form = await readForm(c);
    const decision = form.decision;
    if (decision !== 'approve' && decision !== 'deny') return c.text('bad decision', 400);
    try {
      await deps.approvals.answer(c.req.param('id'), decision, DASHBOARD_ANSWERER);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const code = error.status === 404 ? 'unknown' : 'closed';
      return c.redirect(`/dashboard/approvals?error=${code}`, 303);
    }
    return c.redirect('/dashboard/approvals', 303);
  });
  app.get('/settings', async (c) => {
    const view = deps.settings?.() ?? { groups: [], policies: [] };
    const hosts = (await deps.hosts?.()) ?? null;
    return context.render(c, 'Settings', 'settings', settingsBody(view, hosts));
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
