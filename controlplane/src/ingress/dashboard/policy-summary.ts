// The Settings page's view of the loaded tenant policies: each file with its key rules (domains
// with their ports, credential modes, max steps, what needs approval). Never a secret value: a
// policy names secrets only by name.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { PolicySet } from '../../governance/policy/load-policies.js';
import type { ActionRule, TenantPolicy } from '../../governance/policy/policy-schema.js';

export interface PolicySummary {
  /** The file the policy came from (or the tenant, for in-memory policies). */
  name: string;
  tenant: string;
  rules: [label: string, value: string][];
}

/** A host pattern with the ports it opens: no `:port` means 80 and 443. */
export function withPorts(pattern: string): string {
  return /:\d+$/.test(pattern) ? pattern : `${pattern} (ports 80, 443)`;
}

function ruleText(rule: ActionRule): string {
  const where = rule.hosts ? ` on ${rule.hosts.map(withPorts).join(', ')}` : '';
  const text = rule.text ? ` when the text matches /${rule.text}/` : '';
  return `${rule.action}${where}${text}: ${rule.reason}`;
}

/** What a supervisor must approve under this policy, one clause per rule. */
function approvalsOf(policy: TenantPolicy): string {
  const { approvals, domains } = policy;
  const needs: string[] = [];
  if (approvals.credential_use === 'needs_approval') needs.push('typing a stored secret');
  if (approvals.call_user === 'needs_approval') needs.push('call_user (asking for help)');
  if (domains.outside === 'needs_approval') needs.push("navigation outside the task's domains");
  for (const rule of approvals.actions)
    if (rule.decision === 'needs_approval') needs.push(ruleText(rule));
  return needs.length ? needs.join('; ') : 'nothing';
}

/** When a supervisor takes over the browser (`handoff`), how long the task waits, then what. */
function handoffText({ handoff }: TenantPolicy): string {
  if (!handoff) return 'off: call_user ends the task';
  const then = handoff.on_timeout === 'abort' ? 'the task is aborted' : 'it ends with call_user';
  return `on ${handoff.on.map((reason) => reason.replaceAll('_', ' ')).join(', ')}; waits ${handoff.timeout_s} s for a supervisor, then ${then}`;
}

/** Whether a task may keep its browser for a follow-up (`keep_session`), how many, how long. */
function keptText({ keep_session: keep }: TenantPolicy): string {
  if (!keep.allowed) return 'not allowed';
  return `allowed: at most ${keep.max_sessions} at once, each closed after ${keep.idle_ttl_s} s unused`;
}

/** The key rules of one policy as label/value rows. */
export function policyRules(policy: TenantPolicy): [string, string][] {
  const { domains, credentials, approvals } = policy;
  const denied = approvals.actions.filter((rule) => rule.decision === 'deny').map(ruleText);
  const allowed = approvals.actions.filter((rule) => rule.decision === 'allow').map(ruleText);
  const rows: [string, string][] = [
    ['Allowed domains', domains.allow.map(withPorts).join(', ')],
    ['Outside the domains', domains.outside === 'deny' ? 'refused' : 'needs approval'],
    ['Max steps', String(policy.max_steps)],
    ['Recording', policy.recording],
    ['Credential modes', credentials.modes.join(', ')],
    [
      'Secrets (names only)',
      credentials.secrets.length
        ? credentials.secrets
            .map((secret) => `${secret.name} on ${secret.domains.map(withPorts).join(', ')}`)
            .join('; ')
        : 'none',
    ],
    ['Needs approval', approvalsOf(policy)],
    ['Credential use', approvals.credential_use === 'deny' ? 'refused' : 'needs approval'],
    ['Approval timeout', `${approvals.timeout_s} s (then denied)`],
  ];
  rows.push(['Takeover (handoff)', handoffText(policy)], ['Kept sessions', keptText(policy)]);
  if (denied.length) rows.push(['Refused actions', denied.join('; ')]);
  if (allowed.length) rows.push(['Allowed actions', allowed.join('; ')]);
  return rows;
}

/** Every loaded policy, `default` first, named by its file under `dir` when it has one. */
export function policySummaries(policies: PolicySet, dir?: string): PolicySummary[] {
  const tenants = policies.tenants().sort((a, b) => {
    if (a === 'default' || b === 'default') return a === 'default' ? -1 : 1;
    return a.localeCompare(b);
  });
  return tenants.map((tenant) => {
    const file =
      dir === undefined
        ? undefined
        : [`${tenant}.yaml`, `${tenant}.yml`].map((name) => join(dir, name)).find(existsSync);
    return { name: file ?? tenant, tenant, rules: policyRules(policies.forTenant(tenant)) };
  });
}
