import type { BrowserRunTaskInput } from '../../tasks/task-input.js';
import { capText } from '../audit/bounded-text.js';
import { patternWithin, urlAllowed } from './domain-match.js';
import type { Decision, TenantPolicy } from './policy-schema.js';

const allow = (reason: string): Decision => ({ decision: 'allow', reason });
const deny = (reason: string): Decision => ({ decision: 'deny', reason });
const ask = (reason: string): Decision => ({ decision: 'needs_approval', reason });

export interface TaskAdmission {
  decision: Decision;
  /** The input as it will run: domains defaulted from the policy, max_steps capped, recording forced. */
  input: BrowserRunTaskInput;
}

/**
 * Admits a task under its tenant's policy: its domains must lie within the policy's, its start
 * URL inside them, its credential mode allowed, its step limit within the policy's, and recording
 * permitted. A task without `domains` gets the policy's (unless the policy allows `*`).
 */
export function decideTask(
  input: BrowserRunTaskInput,
  policy: TenantPolicy,
  defaultMaxSteps = policy.max_steps,
): TaskAdmission {
  const allowed = policy.domains.allow;
  const outside = (input.domains ?? []).filter((pattern) => !patternWithin(pattern, allowed));
  const refuse = (reason: string): TaskAdmission => ({ decision: deny(reason), input });
  if (outside.length > 0) {
    return refuse(
      `domains ${outside.join(', ')} are outside tenant ${policy.tenant}'s policy (${allowed.join(', ')})`,
    );
  }
  const domains = input.domains ?? (allowed.includes('*') ? undefined : [...allowed]);
  if (input.start_url && !urlAllowed(input.start_url, domains ?? ['*'])) {
    return refuse(`start_url ${input.start_url} is outside the allowed domains`);
  }
  const mode = input.credential_mode ?? 'none';
  if (!policy.credentials.modes.includes(mode)) {
    return refuse(`credential_mode ${mode} is not allowed for tenant ${policy.tenant}`);
  }
  if ((input.keep_session || input.session_id) && !policy.keep_session.allowed) {
    return refuse(`kept browser sessions are not allowed for tenant ${policy.tenant}`);
  }
  if (input.max_steps !== undefined && input.max_steps > policy.max_steps) {
    return refuse(`max_steps ${input.max_steps} exceeds the policy's ${policy.max_steps}`);
  }
  if (input.record && policy.recording === 'off') return refuse('recording is off by policy');
  const admitted: BrowserRunTaskInput = {
    ...input,
    max_steps: input.max_steps ?? Math.min(defaultMaxSteps, policy.max_steps),
    ...(domains ? { domains } : {}),
    ...(policy.recording === 'always' ? { record: true } : {}),
  };
  return { decision: allow(`within tenant ${policy.tenant}'s policy`), input: admitted };
}

/** `call_user()`: end the task and hand back (allow), or ask a supervisor first. */
export function decideCallUser(policy: TenantPolicy, question: string | null): Decision {
  return policy.approvals.call_user === 'allow'
    ? allow('call_user ends the task')
    : ask(`the model asks for help: ${question === null ? '(no question)' : capText(question)}`);
}
