import type { SessionUse } from '../../tasks/task-plan.js';
import { urlAllowed } from './domain-match.js';
import type { Decision, TenantPolicy } from './policy-schema.js';

/** What admission knows about a stored session profile (read before the pure decision). */
export interface SessionProfileFacts {
  origins: readonly string[];
  expiresAt: number;
  revokedAt: number | null;
}

export type SessionDecision =
  | { decision: Decision & { decision: 'deny' } }
  | { decision: Decision & { decision: 'allow' }; use: SessionUse };

/**
 * `credential_mode: session`: the policy must list profile `name`, the profile must exist for the
 * tenant (`facts`, null when not), be neither revoked nor expired at `now`, its origins must lie
 * within the policy's allowlist for it and every one inside the task's effective `domains`.
 */
export function decideSession(
  name: string,
  policy: TenantPolicy,
  domains: readonly string[] | undefined,
  facts: SessionProfileFacts | null,
  now: number,
): SessionDecision {
  const deny = (reason: string): SessionDecision => ({ decision: { decision: 'deny', reason } });
  const entry = policy.credentials.sessions.find((session) => session.name === name);
  if (!entry) return deny(`session ${name} is not allowed by tenant ${policy.tenant}'s policy`);
  if (!facts) return deny(`tenant ${policy.tenant} has no session profile ${name}`);
  if (facts.revokedAt !== null) return deny(`session profile ${name} is revoked`);
  if (facts.expiresAt <= now) return deny(`session profile ${name} has expired`);
  const outsidePolicy = facts.origins.filter((origin) => !entry.origins.includes(origin));
  if (outsidePolicy.length > 0)
    return deny(
      `session profile ${name} covers ${outsidePolicy.join(', ')}, outside the policy's origins for it (${entry.origins.join(', ')})`,
    );
  const outsideTask = facts.origins.filter((origin) => !urlAllowed(`${origin}/`, domains ?? ['*']));
  if (outsideTask.length > 0)
    return deny(
      `session profile ${name} covers ${outsideTask.join(', ')}, outside the task's domains`,
    );
  return {
    decision: { decision: 'allow', reason: `session ${name} allowed` },
    use: { name, origins: [...facts.origins], requireApproval: entry.require_approval },
  };
}
