import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Hono } from 'hono';
import { html } from 'hono/html';
import type { TaskRecord } from '../../platform/store/task-records.js';
import { commandTask, runsElsewhere, waitsInSharedQueue } from '../../tasks/task-commands.js';
import { type DashboardContext, listQuerySchema, readJpeg } from './dashboard-context.js';
import { buildTaskReport } from './export-report.js';
import { liveBody } from './live-page.js';
import { replayBody } from './replay.js';
import { loadStepCards, taskDetailBody } from './task-detail-page.js';
import { PAGE_SIZE, taskListBody } from './task-list-page.js';

const jpegHeaders = { 'content-type': 'image/jpeg', 'cache-control': 'private, max-age=3600' };

/** Task pages: list, detail, screenshots, replay, export, live view and the loop controls. */
export function createTaskPageRoutes(context: DashboardContext) {
  const { deps, render, notFound, requireTask, now, tenant } = context;
  const { repository, tasks } = deps;
  const screenshotUrl = (taskId: string) => (step: { index: number }) =>
    `/dashboard/tasks/${taskId}/steps/${step.index}/screenshot.jpg`;
  const missing = (c: Parameters<typeof notFound>[0]) =>
    notFound(c, `No task has the trace id ${c.req.param('id') ?? ''}.`);

  /**
   * Runs here, or on another replica (whose loop controls are offered too, and sent there), or
   * waits in the replicas' shared queue (any replica aborts it).
   */
  const activeAnywhere = (task: TaskRecord) =>
    tasks.isActive(task.id) ||
    runsElsewhere(task, deps.replicas) ||
    waitsInSharedQueue(task, tasks);

  const takeoverOf = (taskId: string) => {
    const active = deps.takeover?.registry.get(taskId);
    return active ? { reason: active.reason } : null;
  };

  const app = new Hono();
  app.get('/', async (c) => {
    const query = listQuerySchema.parse(c.req.query());
    const pageNumber = query.page ?? 1;
    const search = query.q ?? '';
    const { tasks: rows, total } = await repository.listTasks({
      limit: PAGE_SIZE,
      offset: (pageNumber - 1) * PAGE_SIZE,
      status: query.status,
      search: search || undefined,
    });
    const body = taskListBody({
      status: query.status,
      search,
      page: pageNumber,
      tasks: rows,
      total,
      counts: await repository.countTasksByStatus(),
      now: now(),
      tenant,
    });
    return render(c, 'Tasks', 'tasks', body);
  });

  app.get('/tasks/:id', async (c) => {
    const task = await requireTask(c);
    if (!task) return missing(c);
    const cards = await loadStepCards(repository, task, screenshotUrl(task.id));
    const active = activeAnywhere(task);
    const hasRecording = Boolean(deps.recordingPath && existsSync(deps.recordingPath(task.id)));
    const approval = tasks.pendingApproval?.(task.id) ?? null;
    const body = taskDetailBody({
      task,
      cards,
      active,
      hasRecording,
      tenant,
      now: now(),
      approval,
      artifacts: (await deps.artifacts?.list(task.id)) ?? [],
      takeover: takeoverOf(task.id),
    });
    return render(c, `Task ${task.id.slice(0, 8)}`, 'tasks', body);
  });

  app.get('/tasks/:id/steps/:index/screenshot.jpg', async (c) => {
    const task = await requireTask(c);
    const step = task ? await repository.getStep(task.id, Number(c.req.param('index'))) : null;
    const jpeg = await readJpeg(step?.screenshotPath ?? null);
    return jpeg ? c.body(jpeg, 200, jpegHeaders) : c.text('no screenshot', 404);
  });

  app.get('/tasks/:id/final.jpg', async (c) => {
    const jpeg = await readJpeg((await requireTask(c))?.finalScreenshotPath ?? null);
    return jpeg ? c.body(jpeg, 200, jpegHeaders) : c.text('no final screenshot', 404);
  });

  app.get('/tasks/:id/artifacts/:name', async (c) => {
    const task = await requireTask(c);
    const stored = task ? ((await deps.artifacts?.list(task.id)) ?? []) : [];
    const artifact = stored.find((entry) => entry.name === c.req.param('name'));
    const bytes = artifact ? await readFile(artifact.path).catch(() => null) : null;
    if (!artifact || !bytes) return c.text('no such download', 404);
    return c.body(new Uint8Array(bytes), 200, {
      'content-type': 'application/octet-stream',
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(artifact.name)}`,
      'x-content-type-options': 'nosniff',
    });
  });

  app.get('/tasks/:id/recording.mp4', async (c) => {
    const task = await requireTask(c);
    const video =
      task && deps.recordingPath
        ? await readFile(deps.recordingPath(task.id)).catch(() => null)
        : null;
    if (!video) return c.text('no recording', 404);
    return c.body(new Uint8Array(video), 200, {
      'content-type': 'video/mp4',
      'cache-control': 'private, max-age=3600',
    });
  });

  app.get('/tasks/:id/replay', async (c) => {
    const task = await requireTask(c);
    if (!task) return missing(c);
    const cards = await loadStepCards(repository, task, screenshotUrl(task.id));
    const body = html`<h1>Replay</h1><p><a href="/dashboard/tasks/${task.id}">← Task details</a> · <span class="muted">Use ← and → to step through the frames.</span></p>${replayBody(cards)}`;
    return render(c, `Replay ${task.id.slice(0, 8)}`, 'tasks', body, 'replay.js');
  });

  app.get('/tasks/:id/export', async (c) => {
    const task = await requireTask(c);
    if (!task) return missing(c);
    const report = await buildTaskReport(repository, task, { tenant, now: now() });
    return c.body(report, 200, {
      'content-type': 'text/html; charset=utf-8',
      'content-disposition': `attachment; filename="clawdie-task-${task.id}.html"`,
      'cache-control': 'no-store',
    });
  });

  app.get('/tasks/:id/live', async (c) => {
    const task = await requireTask(c);
    if (!task) return missing(c);
    const body = liveBody({
      task,
      cards: await loadStepCards(repository, task, () => null),
      active: activeAnywhere(task),
      paused: tasks.isActive(task.id)
        ? (tasks.isPaused?.(task.id) ?? false)
        : task.status === 'paused',
      canPause: Boolean(tasks.pause && tasks.resume) || runsElsewhere(task, deps.replicas),
      // The feed is relayed by the replica whose task holds the browser.
      hasScreencast: Boolean(deps.screencast) && tasks.isActive(task.id),
      takeover: takeoverOf(task.id),
      approval: tasks.pendingApproval?.(task.id) ?? null,
    });
    return render(c, `Live ${task.id.slice(0, 8)}`, 'tasks', body, 'live.js');
  });

  // The admin takes over like a supervisor: a fresh single-use link, spent at once.
  app.post('/tasks/:id/takeover', async (c) => {
    const task = await requireTask(c);
    if (!task) return missing(c);
    const active = deps.takeover?.registry.get(task.id);
    if (!deps.takeover || !active) return c.redirect(`/dashboard/tasks/${task.id}/live`, 303);
    const user = 'dashboard:admin';
    const link = deps.takeover.links.mint({ task: task.id, tenant: active.tenant, user });
    await deps.takeover.audit.append({
      type: 'takeover-link-issued',
      actor: user,
      taskId: task.id,
      data: { via: 'dashboard', user, reason: active.reason, expires_at: link.expiresAt },
    });
    return c.redirect(`/takeover/${task.id}/open?t=${link.token}`, 303);
  });

  for (const command of ['abort', 'pause', 'resume'] as const) {
    app.post(`/tasks/:id/${command}`, async (c) => {
      const task = await requireTask(c);
      if (!task) return missing(c);
      const accepted = await commandTask(deps, task, command, 'dashboard:admin');
      deps.logger.info({ taskId: task.id, command, accepted }, 'dashboard task command');
      return c.redirect(`/dashboard/tasks/${task.id}/live`, 303);
    });
  }
  return app;
}
