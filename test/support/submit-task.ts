import {
  loopbackPrincipal,
  type Principal,
} from '../../controlplane/src/governance/auth/scopes.js';
import type { RunListener } from '../../controlplane/src/tasks/run-stream.js';
import type {
  BrowserRunTaskInput,
  CompactResult,
} from '../../controlplane/src/tasks/task-input.js';
import { allowAllPlan, type TaskPlan } from '../../controlplane/src/tasks/task-plan.js';
import {
  createTaskService,
  type StartedTask,
  type TaskService,
  type TaskServiceDeps,
} from '../../controlplane/src/tasks/task-service.js';

/** What a route handler does: admit `input` for `principal` (default loopback), then start the plan. */
export async function submit(
  tasks: TaskService,
  input: BrowserRunTaskInput,
  onEvent?: RunListener,
  principal: Principal = loopbackPrincipal,
): Promise<StartedTask> {
  return await tasks.start(await tasks.admit(input, principal), onEvent);
}

/** A plan without a tenant policy (its gate is `unpolicedGate`). */
export function testPlan(input: BrowserRunTaskInput, principal = loopbackPrincipal): TaskPlan {
  return allowAllPlan(input, principal, 'test without a tenant policy');
}

/**
 * One unpoliced task run on `deps.operator` (a task service of its own, closed afterwards):
 * `onEvent` subscribes to its events, aborting `signal` aborts it.
 */
export async function runTestTask(
  input: BrowserRunTaskInput,
  deps: TaskServiceDeps,
  options: { signal?: AbortSignal; onEvent?: RunListener } = {},
  principal: Principal = loopbackPrincipal,
): Promise<CompactResult> {
  const tasks = createTaskService(deps);
  const { taskId, done } = await tasks.start(testPlan(input, principal), options.onEvent);
  if (options.signal?.aborted) tasks.abort(taskId);
  options.signal?.addEventListener('abort', () => tasks.abort(taskId), { once: true });
  return done.finally(() => tasks.close());
}
