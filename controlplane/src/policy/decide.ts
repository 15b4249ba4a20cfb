import type { Action } from '@clawdie/jail-service/api';
import type { BrowserRunTaskInput, CredentialMode } from '../tasks/task-input.js';
import { hostMatches, hostOf, patternWithin, urlAllowed } from './domain-match.js';
import { compileLinearRegex, createRegexCache } from './linear-regex.js';
import type { ActionRule, Decision, TenantPolicy } from './policy-schema.js';
import { secretNamesIn } from './secret-placeholders.js';

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

export interface ActionContext {
  policy: TenantPolicy;
  /** The task's effective domains (undefined = any). */
  taskDomains: readonly string[] | undefined;
  /** The page the action happens on. */
  currentUrl: string | null;
  credentialMode: CredentialMode;
}

/**
 * Decides one browser action: navigation outside the task's domains, secret placeholders, then
 * the policy's action rules (first match wins). Anything else is allowed.
 */
export function decideAction(action: Action, context: ActionContext): Decision {
  const { policy } = context;
  if ((action.type === 'navigate' || action.type === 'open_url') && context.taskDomains) {
    if (!urlAllowed(action.url, context.taskDomains)) {
      const reason = `navigation to ${action.url} is outside the task's domains (${context.taskDomains.join(', ')})`;
      return policy.domains.outside === 'deny' ? deny(reason) : ask(reason);
    }
  }
  if (action.type === 'type') {
    const names = secretNamesIn(action.text);
    for (const name of names) {
      const verdict = decideSecret(name, hostOf(context.currentUrl ?? ''), context);
      if (verdict.decision !== 'allow') return verdict;
    }
  }
  const rule = policy.approvals.actions.find((candidate) =>
    ruleMatches(candidate, action, context.currentUrl),
  );
  if (rule) return { decision: rule.decision, reason: rule.reason };
  return allow('no rule restricts this action');
}

/**
 * Using secret `name` on `host`: the task must be in `operator_approved` mode, the secret listed
 * for the tenant on that host; then an operator must approve (or the policy denies all use).
 */
export function decideSecret(name: string, host: string | null, context: ActionContext): Decision {
  if (context.credentialMode !== 'operator_approved') {
    return deny(`secret ${name}: the task's credential_mode is none`);
  }
  const entry = context.policy.credentials.secrets.find((secret) => secret.name === name);
  if (!entry) return deny(`secret ${name} is not available to tenant ${context.policy.tenant}`);
  if (!host || !entry.domains.some((pattern) => hostMatches(host, pattern))) {
    return deny(
      `secret ${name} may not be used on ${host ?? 'this page'} (only ${entry.domains.join(', ')})`,
    );
  }
  if (context.policy.approvals.credential_use === 'deny')
    return deny(`credential use is off for tenant ${context.policy.tenant}`);
  return ask(`type secret ${name} on ${host}`);
}

/** `call_user()`: end the task and hand back (allow), or ask an operator first. */
export function decideCallUser(policy: TenantPolicy, question: string | null): Decision {
  return policy.approvals.call_user === 'allow'
    ? allow('call_user ends the task')
    : ask(`the model asks for help: ${question ?? '(no question)'}`);
}

function ruleMatches(rule: ActionRule, action: Action, currentUrl: string | null): boolean {
  if (rule.action !== '*' && rule.action !== action.type) return false;
  if (rule.hosts) {
    const url = 'url' in action ? action.url : currentUrl;
    const host = url ? hostOf(url) : null;
    if (!host || !rule.hosts.some((pattern) => hostMatches(host, pattern))) return false;
  }
  if (rule.text !== undefined)
    return action.type === 'type' && textRuleMatches(rule.text, action.text);
  return true;
}

const compiledTextRule = createRegexCache((source) => compileLinearRegex(source));

/** A rule's text pattern (validated when the policy loaded) against typed text, in linear time. */
function textRuleMatches(source: string, text: string): boolean {
  const compiled = compiledTextRule(source);
  // Unreachable for loaded policies (policy-schema compiles every pattern); a rule that cannot be
  // compiled applies to all typed text, so a deny or needs_approval rule fails closed.
  return compiled.success ? compiled.regex.test(text) : true;
}
