import { AppError } from '../../errors.js';
import type { BrowserRunTaskInput } from '../../tasks/task-input.js';
import { allowAllPlan, type Denied, isDenied, type TaskPlan } from '../../tasks/task-plan.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/scopes.js';
import { type ArtifactLookup, resolveTaskFiles } from './admit-files.js';
import {
  type AdmissionDefaults,
  type AdmissionFacts,
  admitTask,
  validTaskInput,
} from './admit-task.js';
import type { SessionProfileFacts } from './decide-session.js';
import type { PolicySet } from './load-policies.js';
import type { Decision } from './policy-schema.js';

/**
 * Turns a caller's input into a TaskPlan before anything starts. Throws AppError
 * `POLICY_DENIED` / `INVALID_INPUT` / `JUDGE_UNAVAILABLE` (HTTP 400) when the task may not run.
 */
export interface TaskAdmission {
  /**
   * `taskId`: the id the task will run under (made before admission, so the admission row names
   * it whichever way it goes); the plan carries it to `TaskService.start`.
   */
  admit(input: BrowserRunTaskInput, principal: Principal, taskId?: string): Promise<TaskPlan>;
}

/**
 * Admission under the tenant policies: `admitTask` (pure) decides, and the decision is audited
 * (`policy-decided`, subject `task`) whichever way it goes.
 */
export function createPolicyAdmission(deps: {
  policies: PolicySet;
  audit: AuditLog;
  defaults: AdmissionDefaults;
  /** Session profile metadata by tenant and name (absent: no session can be admitted). */
  sessions?: (tenant: string, name: string) => Promise<SessionProfileFacts | null>;
  /** Where earlier tasks' artifacts are found (input `files[].artifact_of_task`). */
  artifacts?: ArtifactLookup;
  now?: () => number;
}): TaskAdmission {
  return {
    async admit(input, principal, taskId) {
      const policy = deps.policies.forTenant(principal.tenant);
      const name = typeof input.session === 'string' ? input.session : undefined;
      const facts: AdmissionFacts = {
        sessionProfile: name ? ((await deps.sessions?.(principal.tenant, name)) ?? null) : null,
        now: (deps.now ?? Date.now)(),
      };
      const outcome = await withFiles(
        admitTask(input, principal, policy, deps.defaults, facts),
        deps.artifacts,
      );
      await deps.audit.append({
        type: 'policy-decided',
        actor: outcome.actor,
        taskId: taskId ?? null,
        data: {
          subject: 'task',
          tenant: outcome.tenant,
          policy: policy.tenant,
          ...decisionOf(outcome),
        },
      });
      if (isDenied(outcome))
        throw new AppError(outcome.code, outcome.decision.reason, { status: 400 });
      return taskId ? { ...outcome, taskId } : outcome;
    },
  };
}

/** An admitted plan with its input `files` resolved, or refused (POLICY_DENIED) for one of them. */
async function withFiles(
  outcome: TaskPlan | Denied,
  lookup: ArtifactLookup | undefined,
): Promise<TaskPlan | Denied> {
  if (isDenied(outcome) || outcome.rules.kind !== 'policy' || !outcome.input.files) return outcome;
  const files = await resolveTaskFiles(
    outcome.input.files,
    outcome.rules.policy.files,
    outcome.tenant,
    lookup,
  );
  if ('files' in files) return { ...outcome, uploads: files.files };
  const denied: Denied = {
    denied: true,
    code: 'POLICY_DENIED',
    tenant: outcome.tenant,
    actor: outcome.actor,
    decision: { decision: 'deny', reason: files.reason },
  };
  return denied;
}

function decisionOf(outcome: TaskPlan | Denied): Decision {
  if (isDenied(outcome)) return outcome.decision;
  return outcome.rules.kind === 'policy'
    ? outcome.rules.decision
    : { decision: 'allow', reason: outcome.rules.why };
}

/**
 * Admission without a tenant policy: every valid input becomes an `allowAllPlan` (its gate is
 * `unpolicedGate`); invalid input is refused (INVALID_INPUT, 400), and so is a visual condition
 * unless `visualJudge` (JUDGE_UNAVAILABLE, 400). For the labelled demo, replays and services
 * built without a policy.
 */
export function allowAllAdmission(
  why: string,
  environment: Partial<AdmissionDefaults> = {},
): TaskAdmission {
  return {
    async admit(input, principal, taskId) {
      const valid = validTaskInput(input, principal, environment);
      if ('denied' in valid) throw new AppError(valid.code, valid.decision.reason, { status: 400 });
      if (valid.credential_mode === 'session')
        throw new AppError('POLICY_DENIED', 'credential_mode session needs a tenant policy', {
          status: 400,
        });
      if (valid.files)
        throw new AppError(
          'POLICY_DENIED',
          'files: uploads need a tenant policy that allows them',
          {
            status: 400,
          },
        );
      if (valid.model_profile && valid.model_profile !== environment.profile)
        throw new AppError(
          'POLICY_DENIED',
          `model profile ${valid.model_profile}: choosing a model profile needs a tenant policy that lists it`,
          { status: 400 },
        );
      const plan = allowAllPlan(valid, principal, why);
      return taskId ? { ...plan, taskId } : plan;
    },
  };
}
