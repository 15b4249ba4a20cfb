import type { Logger } from 'pino';
import type { Approver } from '../approvals/approval-types.js';
import type { NoticeSender } from '../approvals/notice-sender.js';
import type { AuditLog } from '../audit/audit-log.js';
import { currentPrincipal } from '../auth/request-principal.js';
import { actorOf, loopbackPrincipal } from '../auth/scopes.js';
import { AppError } from '../errors.js';
import type { BrowserOperator } from '../operator/browser-operator.js';
import type { TaskService } from '../tasks/task-service.js';
import { createActionGate } from './action-gate.js';
import { decideTask } from './decide.js';
import type { TaskContext } from './gate-types.js';
import type { PolicySet } from './load-policies.js';
import { relayStuckEvents } from './stuck-notices.js';

export interface PolicedTaskServiceDeps {
  policies: PolicySet;
  audit: AuditLog;
  /** The browser a task holds (screenshots for approvals, the URL for navigation checks). */
  operatorFor: (taskId: string) => BrowserOperator;
  logger: Logger;
  defaultMaxSteps: number;
  /** Per-task contexts, read by runBrowserTask through `RunBrowserTaskDeps.taskContext`. */
  contexts: Map<string, TaskContext>;
  approver?: Approver;
  /** Operator notices (Telegram): every `stuck` event of a task started here is sent once. */
  notices?: NoticeSender;
  /** Credential support for `operator_approved` tasks (credentials/task-credentials.ts). */
  credentials?: (
    taskId: string,
    tenant: string,
    actor: string,
  ) => Pick<TaskContext, 'wrapOperator'> & {
    onSecretApproved(name: string, host: string): Promise<void>;
  };
}

/**
 * Puts the tenant policy in front of a TaskService: the caller (from the request, or the loopback
 * principal) is admitted under its tenant's policy (denied → AppError POLICY_DENIED, HTTP 400),
 * the decision is audited, and the task runs with an action gate for that policy.
 */
export function createPolicedTaskService(
  inner: TaskService,
  deps: PolicedTaskServiceDeps,
): TaskService {
  return {
    ...inner,
    start(...[input, onEvent]: Parameters<TaskService['start']>) {
      const principal = currentPrincipal() ?? loopbackPrincipal;
      const actor = actorOf(principal);
      const policy = deps.policies.forTenant(principal.tenant);
      const admission = decideTask(input, policy, deps.defaultMaxSteps);
      deps.audit.append({
        type: 'policy-decided',
        actor,
        data: {
          subject: 'task',
          tenant: principal.tenant,
          policy: policy.tenant,
          ...admission.decision,
        },
      });
      if (admission.decision.decision !== 'allow') {
        throw new AppError('POLICY_DENIED', admission.decision.reason, { status: 400 });
      }
      const started = inner.start(admission.input, onEvent);
      const credentials =
        admission.input.credential_mode === 'operator_approved'
          ? deps.credentials?.(started.taskId, principal.tenant, actor)
          : undefined;
      deps.contexts.set(started.taskId, {
        tenant: principal.tenant,
        actor,
        gate: createActionGate({
          taskId: started.taskId,
          tenant: principal.tenant,
          actor,
          policy,
          taskDomains: admission.input.domains,
          credentialMode: admission.input.credential_mode ?? 'none',
          operator: deps.operatorFor(started.taskId),
          audit: deps.audit,
          logger: deps.logger,
          approver: deps.approver,
          onSecretApproved: credentials?.onSecretApproved,
        }),
        ...(credentials?.wrapOperator ? { wrapOperator: credentials.wrapOperator } : {}),
      });
      const unsubscribe = deps.notices
        ? relayStuckEvents({
            events: inner.events,
            taskId: started.taskId,
            tenant: principal.tenant,
            operator: deps.operatorFor(started.taskId),
            send: deps.notices,
            logger: deps.logger,
          })
        : undefined;
      void started.done
        .finally(() => {
          deps.contexts.delete(started.taskId);
          unsubscribe?.();
        })
        .catch(() => undefined);
      return started;
    },
  };
}
