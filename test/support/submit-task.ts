import type { LoopEvent } from '../../controlplane/src/agent/loop-types.js';
import { loopbackPrincipal, type Principal } from '../../controlplane/src/auth/scopes.js';
import { unpolicedGate } from '../../controlplane/src/policy/unpoliced-gate.js';
import {
  type RunBrowserTaskDeps,
  type RunBrowserTaskOptions,
  runBrowserTask,
} from '../../controlplane/src/tasks/run-browser-task.js';
import type {
  BrowserRunTaskInput,
  CompactResult,
} from '../../controlplane/src/tasks/task-input.js';
import { allowAllPlan, type TaskPlan } from '../../controlplane/src/tasks/task-plan.js';
import { createTaskRow } from '../../controlplane/src/tasks/task-run.js';
import type { StartedTask, TaskService } from '../../controlplane/src/tasks/task-service.js';

/** What a route handler does: admit `input` for `principal` (default loopback), then start the plan. */
export function submit(
  tasks: TaskService,
  input: BrowserRunTaskInput,
  onEvent?: (event: LoopEvent) => void,
  principal: Principal = loopbackPrincipal,
): StartedTask {
  return tasks.start(tasks.admit(input, principal), onEvent);
}

/** A plan without a tenant policy (its gate is `unpolicedGate`), for runBrowserTask in tests. */
export function testPlan(input: BrowserRunTaskInput, principal = loopbackPrincipal): TaskPlan {
  return allowAllPlan(input, principal, 'test without a tenant policy');
}

/**
 * runBrowserTask as an unpoliced task run drives it, on `deps.operator` as given: the row is
 * created first (`options.taskId`, else a new id), the gate is `unpolicedGate`.
 */
export function runTestTask(
  input: BrowserRunTaskInput,
  deps: RunBrowserTaskDeps,
  options: Partial<RunBrowserTaskOptions> = {},
  principal: Principal = loopbackPrincipal,
): Promise<CompactResult> {
  const plan = testPlan(input, principal);
  const taskId = options.taskId ?? deps.newId();
  createTaskRow(taskId, plan, deps);
  return runBrowserTask(plan, deps, { gate: unpolicedGate(input.domains), ...options, taskId });
}
