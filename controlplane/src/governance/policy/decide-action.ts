// One browser action decided where it lands (issue 20): the navigation it is (a URL, or a link
// or form that leaves the origin or posts), every frame origin its target sits in, and for a
// secret the focused field. Pure: the gate fetches the landing and audits the decision.
import type { Action, LandingTarget } from '@clawdie/kit/jail-api';
import type { CredentialMode } from '../../tasks/task-input.js';
import { capText } from '../audit/bounded-text.js';
import { placeMatches, placeName, urlAllowed, webOriginOf } from './domain-match.js';
import { frameOrigins, navigationOf, needsLanding } from './landing-facts.js';
import { compileLinearRegex, createRegexCache } from './linear-regex.js';
import {
  type ActionRule,
  type Decision,
  type DecisionKind,
  secretFields,
  type TenantPolicy,
} from './policy-schema.js';
import { secretNamesIn } from './secret-placeholders.js';

const allow = (reason: string): Decision => ({ decision: 'allow', reason });
const deny = (reason: string, kind: DecisionKind): Decision => ({
  decision: 'deny',
  reason,
  kind,
});
const ask = (reason: string, kind: DecisionKind): Decision => ({
  decision: 'needs_approval',
  reason,
  kind,
});

export interface ActionContext {
  policy: TenantPolicy;
  /** The task's effective domains (undefined = any). */
  taskDomains: readonly string[] | undefined;
  /** The active page (its URL stands for the target when `target` is unknown). */
  currentUrl: string | null;
  /**
   * Where the action lands (`BrowserOperator.landing`): undefined when not asked (the action
   * lands nowhere), null when the surface cannot say (a desktop): then only `currentUrl` counts
   * for host rules, and a secret is refused (its field cannot be checked).
   */
  target?: LandingTarget | null | undefined;
  credentialMode: CredentialMode;
}

/**
 * Decides one browser action: a navigation (URL, or a destination that is one) or a target frame
 * outside the task's domains, secret placeholders (host, then field), then the policy's action
 * rules against every host involved (first match wins). Anything else is allowed.
 */
export function decideAction(action: Action, context: ActionContext): Decision {
  const { policy } = context;
  const target = context.target ?? null;
  const navigation = navigationOf(action, target);
  const outside = (reason: string, kind: DecisionKind) =>
    policy.domains.outside === 'deny' ? deny(reason, kind) : ask(reason, kind);
  if (navigation && context.taskDomains && !urlAllowed(navigation, context.taskDomains)) {
    const reason = `navigation to ${capText(navigation)} is outside the task's domains (${context.taskDomains.join(', ')})`;
    return outside(reason, 'navigation');
  }
  // Secrets first: a refusal here is final, whatever a supervisor might approve for the frame.
  if (action.type === 'type') {
    const secrets = secretNamesIn(action.text).map((name) => decideSecretField(name, context));
    const refused = secrets.find((verdict) => verdict.decision === 'deny');
    if (refused) return refused;
    const asked = secrets.find((verdict) => verdict.decision === 'needs_approval');
    if (asked) return asked;
  }
  const isUrlAction = action.type === 'navigate' || action.type === 'open_url';
  // Frames and destinations as origins (host and port): distinct ports are distinct sites.
  const frames = isUrlAction ? [] : frameOrigins(target, context.currentUrl);
  if (context.taskDomains && needsLanding(action) && target) {
    const foreign = frames.find(
      (origin) => !context.taskDomains?.some((pattern) => placeMatches(origin, pattern)),
    );
    if (foreign)
      return outside(
        `the target is in a frame of ${placeName(foreign)}, outside the task's domains (${context.taskDomains.join(', ')})`,
        'frame_origin',
      );
  }
  const navigationOrigin = navigation ? webOriginOf(navigation) : null;
  const places = navigationOrigin ? [...new Set([...frames, navigationOrigin])] : frames;
  const rule = policy.approvals.actions.find((candidate) =>
    ruleMatches(candidate, action, navigation !== null, places),
  );
  if (rule)
    return {
      decision: rule.decision,
      reason: rule.reason,
      kind: rule.hosts ? 'host_rule' : 'action_rule',
    };
  return allow('no rule restricts this action');
}

/**
 * Typing secret `name` where the focus is: the focused field's frame must be on one of the
 * secret's hosts and the field one it is for (password by default; policy `fields`), checked
 * before any supervisor is asked; then the usual rules of `decideSecret`.
 */
function decideSecretField(name: string, context: ActionContext): Decision {
  const focused = context.target?.frames.at(-1) ?? null;
  const place = focused ? (webOriginOf(focused.origin) ?? webOriginOf(focused.url)) : null;
  const verdict = decideSecret(name, place, context);
  if (verdict.decision === 'deny') return verdict;
  const entry = context.policy.credentials.secrets.find((secret) => secret.name === name);
  const element = context.target?.element ?? null;
  if (!entry || !element)
    return deny(`secret ${name}: the focused field could not be located`, 'credential_field');
  const fields = secretFields(entry);
  const tokens = (element.autocomplete ?? '').toLowerCase().split(/\s+/);
  if (!fields.kinds.includes(element.field) && !tokens.some((t) => fields.autocomplete.includes(t)))
    return deny(
      `secret ${name} may only be typed into ${describeFields(fields)}; the focus is in a ${element.field} field${element.autocomplete ? ` (autocomplete ${capText(element.autocomplete, 64)})` : ''} of ${focused?.origin}`,
      'credential_field',
    );
  return verdict;
}

function describeFields(fields: { kinds: string[]; autocomplete: string[] }): string {
  const parts = [
    ...fields.kinds.map((kind) => `${kind} fields`),
    ...fields.autocomplete.map((token) => `autocomplete=${token} fields`),
  ];
  return parts.join(' or ');
}

/**
 * Using secret `name` at `place` (the focused frame's http(s) origin): the task must be in
 * `supervisor_approved` mode, the secret listed for the tenant on that host (and port, when its
 * pattern names one); then a supervisor must approve (or the policy denies all use).
 */
export function decideSecret(name: string, place: string | null, context: ActionContext): Decision {
  const host = place ? placeName(place) : null;
  if (context.credentialMode !== 'supervisor_approved') {
    return deny(`secret ${name}: the task's credential_mode is none`, 'credential');
  }
  const entry = context.policy.credentials.secrets.find((secret) => secret.name === name);
  if (!entry)
    return deny(
      `secret ${capText(name, 64)} is not available to tenant ${context.policy.tenant}`,
      'credential',
    );
  if (!place || !entry.domains.some((pattern) => placeMatches(place, pattern))) {
    return deny(
      `secret ${name} may not be used on ${host ?? 'this page'} (only ${entry.domains.join(', ')})`,
      'credential',
    );
  }
  if (context.policy.approvals.credential_use === 'deny')
    return deny(`credential use is off for tenant ${context.policy.tenant}`, 'credential');
  return ask(`type secret ${name} on ${host}`, 'credential');
}

function ruleMatches(
  rule: ActionRule,
  action: Action,
  isNavigation: boolean,
  places: readonly string[],
): boolean {
  const typeMatches =
    rule.action === '*' ||
    rule.action === action.type ||
    (rule.action === 'navigate' && isNavigation);
  if (!typeMatches) return false;
  if (rule.hosts && !places.some((place) => rule.hosts?.some((p) => placeMatches(place, p))))
    return false;
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
