import type { ProfileName } from '../../agent/profiles/profile-types.js';
import { judgeUnavailable } from '../../errors.js';
import { type BrowserRunTaskInput, browserRunTaskInputSchema } from '../../tasks/task-input.js';
import { type Denied, keepRulesOf, type TaskPlan } from '../../tasks/task-plan.js';
import { actorOf, type Principal } from '../auth/scopes.js';
import { decideTask } from './decide.js';
import { decideSession, type SessionProfileFacts } from './decide-session.js';
import type { TenantPolicy } from './policy-schema.js';

export interface AdmissionDefaults {
  /** The configured step limit (`config.loop.maxSteps`), capped by the policy's. */
  maxSteps: number;
  /** A vision judge is configured; without one, visual conditions are refused (JUDGE_UNAVAILABLE). */
  visualJudge?: boolean | undefined;
  /** The configured model profile (CLAWDIE_MODEL_PROFILE): a task may name it without a policy entry. */
  profile?: ProfileName | undefined;
}

/** Facts read before the decision, so it stays pure: the named session profile and the time. */
export interface AdmissionFacts {
  /** The tenant's profile named by `input.session` (null: none; undefined: not looked up). */
  sessionProfile?: SessionProfileFacts | null;
  now?: number;
}

/**
 * Admission as a pure function (no I/O, no clock): validates `input`, decides it under the
 * tenant's `policy` and returns the plan the task will run with — tenant and actor from
 * `principal`, effective domains, credential mode, step limit, recording, and the policy its gate
 * enforces — or why it is denied. The caller audits the decision.
 */
export function admitTask(
  input: BrowserRunTaskInput,
  principal: Principal,
  policy: TenantPolicy,
  defaults: AdmissionDefaults,
  facts: AdmissionFacts = {},
): TaskPlan | Denied {
  const tenant = principal.tenant;
  const actor = actorOf(principal);
  const parsed = validTaskInput(input, principal, defaults);
  if ('denied' in parsed) return parsed;
  const admission = decideTask(parsed, policy, defaults.maxSteps);
  if (admission.decision.decision !== 'allow')
    return { denied: true, code: 'POLICY_DENIED', tenant, actor, decision: admission.decision };
  const session = parsed.session
    ? decideSession(
        parsed.session,
        policy,
        admission.input.domains,
        facts.sessionProfile ?? null,
        facts.now ?? 0,
      )
    : undefined;
  if (session && session.decision.decision === 'deny')
    return { denied: true, code: 'POLICY_DENIED', tenant, actor, decision: session.decision };
  const chosen = parsed.model_profile;
  if (chosen && chosen !== defaults.profile && !policy.models.profiles.includes(chosen)) {
    const reason = `model profile ${chosen} is not listed in the tenant policy (models.profiles)`;
    return {
      denied: true,
      code: 'POLICY_DENIED',
      tenant,
      actor,
      decision: { decision: 'deny', reason },
    };
  }
  return {
    tenant,
    actor,
    input: admission.input,
    rules: {
      kind: 'policy',
      policy,
      credentialMode: admission.input.credential_mode ?? 'none',
      domains: admission.input.domains,
      decision: admission.decision,
      ...(session && 'use' in session ? { session: session.use } : {}),
    },
    keep: keepRulesOf(policy),
  };
}

/**
 * `input` checked against the task input schema (defaults applied), or why it is invalid — or
 * why it cannot run here: a visual condition without a vision judge.
 */
export function validTaskInput(
  input: BrowserRunTaskInput,
  principal: Principal,
  environment: { visualJudge?: boolean | undefined } = {},
): BrowserRunTaskInput | Denied {
  const parsed = browserRunTaskInputSchema.safeParse(input);
  if (parsed.success) {
    const visual = visualFields(parsed.data);
    if (visual.length === 0 || environment.visualJudge) return parsed.data;
    return {
      denied: true,
      code: 'JUDGE_UNAVAILABLE',
      tenant: principal.tenant,
      actor: actorOf(principal),
      decision: { decision: 'deny', reason: judgeUnavailable(visual.join(' and ')) },
    };
  }
  const reason = parsed.error.issues
    .map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`)
    .join('; ');
  return {
    denied: true,
    code: 'INVALID_INPUT',
    tenant: principal.tenant,
    actor: actorOf(principal),
    decision: { decision: 'deny', reason: `invalid task input: ${reason}` },
  };
}

/** The fields of `input` a vision judge decides. */
function visualFields(input: BrowserRunTaskInput): string[] {
  return [
    ...(input.success_criteria?.visual ? ['success_criteria.visual'] : []),
    ...(input.logged_in_check?.visual ? ['logged_in_check.visual'] : []),
  ];
}
