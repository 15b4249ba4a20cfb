import type { BrowserRunTaskInput } from '../../tasks/task-input.js';
import { capText } from '../audit/bounded-text.js';
import { patternWithin, placeName, urlAllowed } from './domain-match.js';
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
 * permitted. A task without `domains` gets the policy's whole list (none when the list is only
 * `*`): `["*", "127.0.0.1:8701"]` is every host on 80/443 AND 127.0.0.1 on 8701.
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
  const onlyAny = allowed.length === 1 && allowed[0] === '*';
  const domains = input.domains ?? (onlyAny ? undefined : [...allowed]);
  if (input.start_url && !urlAllowed(input.start_url, domains ?? allowed)) {
    return refuse(startUrlOutside(input.start_url, input.domains, policy));
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

/**
 * Why a start URL is refused, with what to change: its host and port, the list it was checked
 * against (the task's `domains`, else the policy's `domains.allow` in its file), and that a
 * pattern without `:port` covers ports 80 and 443 only.
 */
function startUrlOutside(
  url: string,
  taskDomains: readonly string[] | undefined,
  policy: TenantPolicy,
): string {
  const place = placeName(url);
  const where = taskDomains
    ? `the task's domains (${taskDomains.join(', ')})`
    : `tenant ${policy.tenant}'s domains.allow (${policy.domains.allow.join(', ')}; policy file ${policy.tenant}.yaml, else default.yaml)`;
  const port = /:\d+$/.test(place) ? '' : ' on port 80 or 443';
  return `start_url ${capText(url, 200)}: ${place}${port} is outside ${where}; a pattern without :port covers ports 80 and 443 only — add "${place}" to allow it`;
}
