import type { Logger } from 'pino';
import { AppError } from '../../errors.js';
import type { Approver } from '../../governance/approvals/approval-types.js';
import type { TaskPlan } from '../../tasks/task-plan.js';
import type { SessionTransfer } from '../operator/jail-session-client.js';
import type { BrowserLease, JailEndpoint } from '../provider/browser-provider.js';
import { failingOperator } from '../provider/lease-browser.js';
import type { SessionProfileService } from './session-profile-service.js';

/**
 * Prepares a fresh lease for its task before the first step: for a plan with a session profile,
 * asks a supervisor first when the policy says so, then injects the profile into the clone.
 * Never throws: a refusal or failure returns the lease with an operator that fails every call,
 * so the task ends `error` (APPROVAL_DENIED / SESSION_INJECT_FAILED) with nothing typed or shown.
 */
export type LeasePreparer = (
  plan: TaskPlan,
  taskId: string,
  lease: BrowserLease,
  signal: AbortSignal,
) => Promise<BrowserLease>;

export interface SessionInjectorDeps {
  sessions: SessionProfileService;
  /** Absent: a profile whose policy entry requires approval is refused. */
  approver?: Approver | undefined;
  transferFor: (service: JailEndpoint) => SessionTransfer;
  logger: Logger;
}

export function createSessionInjector(deps: SessionInjectorDeps): LeasePreparer {
  return async (plan, taskId, lease, signal) => {
    const rules = plan.rules;
    if (rules.kind !== 'policy' || !rules.session) return lease;
    const { session } = rules;
    const fail = (error: AppError): BrowserLease => {
      deps.logger.warn({ taskId, session: session.name, code: error.code }, 'session not injected');
      return { ...lease, operator: failingOperator(error) };
    };
    if (!lease.service)
      return fail(new AppError('SESSION_INJECT_FAILED', "the task's browser has no jail-service"));
    try {
      if (session.requireApproval && !(await approved(deps.approver, plan, taskId, signal)))
        return fail(
          new AppError('APPROVAL_DENIED', `no supervisor approved saved session ${session.name}`),
        );
      await deps.sessions.inject(
        { tenant: plan.tenant, name: session.name, taskId, actor: plan.actor },
        deps.transferFor(lease.service),
        signal,
      );
      return lease;
    } catch (error) {
      const code = error instanceof AppError ? error.code : 'INTERNAL';
      return fail(
        new AppError(
          'SESSION_INJECT_FAILED',
          `saved session ${session.name} not injected (${code})`,
        ),
      );
    }
  };
}

/** Asks a supervisor about the plan's session (no approver: refused). Rejects only on abort. */
async function approved(
  approver: Approver | undefined,
  plan: TaskPlan,
  taskId: string,
  signal: AbortSignal,
): Promise<boolean> {
  const { rules } = plan;
  if (!approver || rules.kind !== 'policy' || !rules.session) return false;
  const { session } = rules;
  const outcome = await approver.request(
    {
      taskId,
      tenant: plan.tenant,
      kind: 'credential',
      reason: `start logged in with saved session ${session.name} (${session.origins.join(', ')})`,
      detail: { session: session.name, origins: session.origins },
      timeoutMs: rules.policy.approvals.timeout_s * 1000,
    },
    signal,
  );
  return outcome.approved;
}
