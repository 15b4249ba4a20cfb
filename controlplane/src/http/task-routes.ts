import { readFile } from 'node:fs/promises';
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { visibleTenant } from '../auth/scopes.js';
import { AppError, NotFoundError } from '../errors.js';
import { taskStatusValues } from '../store/task-records.js';
import type { TaskRepository } from '../store/task-repository.js';
import { browserRunTaskInputSchema } from '../tasks/task-input.js';
import type { TaskService } from '../tasks/task-service.js';
import { readJson } from './error-handler.js';
import { streamTaskEvents } from './task-event-stream.js';
import { actionView, compactResultOf, logView, stepView, taskView } from './task-views.js';

const listQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).default(0),
  status: z.enum(taskStatusValues).optional(),
});
const stepIndexSchema = z.coerce.number().int().min(1);

/** The tenant the caller may read (undefined = all, for `admin`); see `visibleTenant`. */
function tenantOf(c: Context): string | undefined {
  const principal = c.get('principal');
  // Fail closed: the routes are only ever mounted behind the auth (or loopback) middleware.
  if (!principal) throw new Error('task routes reached without a principal');
  return visibleTenant(principal);
}

/**
 * `/v1/tasks`: start, list, inspect at task and step level, fetch step screenshots, abort. A caller
 * without `admin` sees only its own tenant's tasks: another tenant's task answers 404 like an
 * unknown id, on every route, so trace ids do not leak across tenants.
 */
export function createTaskRoutes(deps: { tasks: TaskService; repository: TaskRepository }) {
  const { tasks, repository } = deps;
  const requireTask = (c: Context) => {
    const id = c.req.param('id') ?? '';
    const task = repository.getTask(id, tenantOf(c));
    if (!task) throw new NotFoundError(`no task with trace_id ${id}`);
    return task;
  };
  const requireStep = (c: Context) => {
    const id = requireTask(c).id;
    const rawIndex = c.req.param('index') ?? '';
    const step = repository.getStep(id, stepIndexSchema.parse(rawIndex));
    if (!step) throw new NotFoundError(`task ${id} has no step ${rawIndex}`);
    return step;
  };

  return new Hono()
    .post('/', async (c) => {
      const input = browserRunTaskInputSchema.parse(await readJson(c));
      const { taskId, done } = tasks.start(input);
      void done.catch(() => undefined);
      return c.json({ trace_id: taskId, status: 'queued' }, 202);
    })
    .get('/', (c) => {
      const query = listQuerySchema.parse(c.req.query());
      const { tasks: rows, total } = repository.listTasks({ ...query, tenant: tenantOf(c) });
      return c.json({ tasks: rows.map(taskView), total, limit: query.limit, offset: query.offset });
    })
    .get('/:id', (c) => {
      const task = requireTask(c);
      const steps = repository.listSteps(task.id).map(stepView);
      return c.json({ task: taskView(task), result: compactResultOf(task), steps });
    })
    .get('/:id/events', (c) => streamTaskEvents(c, requireTask(c), deps))
    .get('/:id/steps/:index', (c) => {
      const step = requireStep(c);
      const actions = repository.listActions(step.id).map(actionView);
      const logs = repository.listLogs(step.taskId, step.id).map(logView);
      return c.json({ step: stepView(step), actions, logs });
    })
    .get('/:id/steps/:index/screenshot', async (c) => {
      const step = requireStep(c);
      if (!step.screenshotPath) throw new NotFoundError('this step has no screenshot');
      const jpeg = await readFile(step.screenshotPath).catch(() => {
        throw new NotFoundError(`screenshot file is missing: ${step.screenshotPath}`);
      });
      return c.body(new Uint8Array(jpeg), 200, { 'content-type': 'image/jpeg' });
    })
    .post('/:id/abort', (c) => {
      const task = requireTask(c);
      if (!tasks.abort(task.id)) {
        throw new AppError(
          'TASK_NOT_ACTIVE',
          `task ${task.id} has already ended (${task.status})`,
          { status: 409 },
        );
      }
      return c.json({ trace_id: task.id, status: 'aborting' }, 202);
    });
}
