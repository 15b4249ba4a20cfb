import type { HandoffReason, LoopHandoff } from '../../agent/loop/handoff-types.js';
import type { TaskPlan } from '../../tasks/task-plan.js';
import type { BrowserLease } from '../provider/browser-provider.js';
import { createTaskHandoff, type TakeoverDeps } from './task-handoff.js';

/**
 * The takeover port of one task: only when takeover is configured and the task's tenant policy
 * has a `handoff` block (absent: call_user ends the task as before, nothing is detected).
 */
export function handoffForTask(
  deps: TakeoverDeps | undefined,
  plan: TaskPlan,
  context: {
    taskId: string;
    lease: BrowserLease;
    onNeedsUser: (reason: HandoffReason | null) => void;
  },
): LoopHandoff | undefined {
  const policy = plan.rules.kind === 'policy' ? plan.rules.policy.handoff : undefined;
  if (!deps || !policy) return undefined;
  const { lease } = context;
  return createTaskHandoff(deps, {
    taskId: context.taskId,
    tenant: plan.tenant,
    policy,
    endpoint: lease.service,
    onNeedsUser: context.onNeedsUser,
    screenshot: async () => Buffer.from((await lease.operator.screenshot()).jpeg),
  });
}
