import { readFile } from 'node:fs/promises';
import type { Context } from 'hono';
import { z } from 'zod';
import { AppError, NotFoundError } from '../../errors.js';
import { actorOf, type Principal, visibleTenant } from '../../governance/auth/scopes.js';
import { taskStatusValues } from '../../platform/store/task-records.js';
import { commandTask } from '../../tasks/task-commands.js';
import { browserRunTaskInputSchema } from '../../tasks/task-input.js';
import { type RouteDeps, type RouteEntry, route } from './route-types.js';
import { streamTaskEvents } from './task-event-stream.js';
import { stepDetailSchema, taskDetailSchema, taskListSchema } from './task-view-schemas.js';
import { actionView, compactResultOf, logView, stepView, taskView } from './task-views.js';

const listQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).default(0),
  status: z.enum(taskStatusValues).optional(),
});
export const taskParams = z.object({ id: z.string().describe('trace_id') });
const stepParams = taskParams.extend({ index: z.coerce.number().int().min(1) });
export const errors = {
  '400': { description: 'Invalid request; the message names the field', ref: 'Error' },
  '404': { description: 'No such task or step', ref: 'Error' },
};
const traceStatus = (status: string) =>
  z.object({ trace_id: z.string(), status: z.literal(status) });

/** The caller, as the auth (or loopback) middleware set it. */
function principalOf(c: Context): Principal {
  const principal = c.get('principal');
  // Fail closed: the routes are only ever mounted behind the auth (or loopback) middleware.
  if (!principal) throw new Error('task routes reached without a principal');
  return principal;
}

/** The tenant the caller may read (undefined = all, for `admin`); see `visibleTenant`. */
function tenantOf(c: Context): string | undefined {
  return visibleTenant(principalOf(c));
}

/** Another tenant's task answers 404 exactly like an unknown id, so trace ids do not leak. */
export async function requireTask(c: Context, deps: RouteDeps) {
  const id = c.req.param('id') ?? '';
  const task = await deps.repository.getTask(id, tenantOf(c));
  if (!task) throw new NotFoundError(`no task with trace_id ${id}`);
  return task;
}

async function requireStep(c: Context, deps: RouteDeps, index: () => number) {
  const { id } = await requireTask(c, deps);
  const step = await deps.repository.getStep(id, index());
  if (!step) throw new NotFoundError(`task ${id} has no step ${c.req.param('index') ?? ''}`);
  return step;
}

/**
 * `/v1/tasks`: start, list, inspect at task and step level, fetch step screenshots, abort. A caller
 * without `admin` sees only its own tenant's tasks, on every route.
 */
export const taskRoutes: RouteEntry[] = [
  route({
    method: 'POST',
    path: '/v1/tasks',
    forward: 'session',
    access: 'tasks:run',
    summary: 'Start a browser task; returns its trace_id at once',
    body: browserRunTaskInputSchema,
    bodyRef: 'BrowserRunTaskInput',
    responses: {
      '202': { description: 'Queued', schema: traceStatus('queued') },
      '503': { description: 'No model configured', ref: 'Error' },
      ...errors,
    },
    handle: async (c, { body }, { tasks }) => {
      // Admission first (denied: 400, nothing started); the plan carries the caller's tenant.
      const { taskId, done } = await tasks.start(await tasks.admit(body, principalOf(c)));
      void done.catch(() => undefined);
      return c.json({ trace_id: taskId, status: 'queued' }, 202);
    },
  }),
  route({
    method: 'GET',
    path: '/v1/tasks',
    access: 'tasks:read',
    summary: 'List tasks, newest first',
    query: listQuerySchema,
    responses: { '200': { description: 'A page of tasks', schema: taskListSchema }, ...errors },
    handle: async (c, { query }, { repository }) => {
      const { tasks: rows, total } = await repository.listTasks({ ...query, tenant: tenantOf(c) });
      return c.json({ tasks: rows.map(taskView), total, limit: query.limit, offset: query.offset });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/tasks/:id',
    forward: 'page',
    access: 'tasks:read',
    summary: 'Task, its steps and (once ended) the compact result',
    params: taskParams,
    responses: { '200': { description: 'The task', schema: taskDetailSchema }, ...errors },
    handle: async (c, _input, deps) => {
      const task = await requireTask(c, deps);
      const steps = (await deps.repository.listSteps(task.id)).map(stepView);
      const approval = deps.tasks.pendingApproval?.(task.id) ?? null;
      const reason = deps.tasks.needsUser?.(task.id) ?? null;
      return c.json({
        task: taskView(task),
        result: compactResultOf(task),
        steps,
        approval,
        needs_user: reason && { reason },
      });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/tasks/:id/events',
    access: 'tasks:read',
    summary:
      'Server-Sent Events: status (queued, running, paused, needs_user with its reason, awaiting_approval with the pending approval), step (one per step, an aborted one included, with the step_count), stuck, result; resumable with Last-Event-ID on any controlplane on the same database',
    params: taskParams,
    headers: [{ name: 'Last-Event-ID', schema: { type: 'integer' } }],
    responses: {
      '200': { description: 'text/event-stream', contentType: 'text/event-stream' },
      ...errors,
    },
    handle: async (c, _input, deps) => streamTaskEvents(c, await requireTask(c, deps), deps),
  }),
  route({
    method: 'GET',
    path: '/v1/tasks/:id/steps/:index',
    access: 'tasks:read',
    summary: 'One step with its actions and logs',
    params: stepParams,
    responses: { '200': { description: 'The step', schema: stepDetailSchema }, ...errors },
    handle: async (c, { params }, deps) => {
      const step = await requireStep(c, deps, () => params().index);
      const actions = (await deps.repository.listActions(step.id)).map(actionView);
      const logs = (await deps.repository.listLogs(step.taskId, step.id)).map(logView);
      return c.json({ step: stepView(step), actions, logs });
    },
  }),
  route({
    method: 'GET',
    path: '/v1/tasks/:id/steps/:index/screenshot',
    forward: 'files',
    access: 'tasks:read',
    summary: 'The JPEG the model saw at this step',
    params: stepParams,
    responses: { '200': { description: 'image/jpeg', contentType: 'image/jpeg' }, ...errors },
    handle: async (c, { params }, deps) => {
      const step = await requireStep(c, deps, () => params().index);
      if (!step.screenshotPath) throw new NotFoundError('this step has no screenshot');
      const jpeg = await readFile(step.screenshotPath).catch(() => {
        throw new NotFoundError(`screenshot file is missing: ${step.screenshotPath}`);
      });
      return c.body(new Uint8Array(jpeg), 200, { 'content-type': 'image/jpeg' });
    },
  }),
  route({
    method: 'POST',
    path: '/v1/tasks/:id/abort',
    access: 'tasks:run',
    summary: 'Abort a queued or running task',
    params: taskParams,
    responses: {
      '202': { description: 'Aborting', schema: traceStatus('aborting') },
      '409': { description: 'Already ended, or the replica that ran it is gone', ref: 'Error' },
      '503': { description: 'The replica that runs it did not act in time', ref: 'Error' },
      ...errors,
    },
    handle: async (c, _input, deps) => {
      const task = await requireTask(c, deps);
      if (!(await commandTask(deps, task, 'abort', actorOf(principalOf(c))))) {
        throw new AppError(
          'TASK_NOT_ACTIVE',
          `task ${task.id} has already ended (${task.status})`,
          { status: 409 },
        );
      }
      return c.json({ trace_id: task.id, status: 'aborting' }, 202);
    },
  }),
];
