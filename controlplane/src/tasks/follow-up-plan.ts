import type { KeptBrowsers } from '../browser/provider/kept-browsers.js';
import { AppError } from '../errors.js';
import { patternWithin } from '../governance/policy/domain-match.js';
import type { BrowserRunTaskInput } from './task-input.js';
import type { TaskPlan } from './task-plan.js';

/** No kept browser by that id for the caller's tenant (expired, taken, or never there). */
export class KeptSessionNotFoundError extends AppError {
  constructor(sessionId: string) {
    super(
      'SESSION_NOT_FOUND',
      `no kept browser ${sessionId} for this tenant: it expired (idle TTL), another task took it, the controlplane restarted, or it never existed; run the task without session_id`,
      { status: 404 },
    );
  }
}

/**
 * The plan of a follow-up task (`session_id`): it runs in the kept browser, whose network layer
 * was fixed for the domains of the task that made it. Those must lie within what this plan may
 * reach, so the follow-up never gets a wider network than its own admission; without its own
 * `domains` it inherits the kept browser's. Throws KeptSessionNotFoundError or POLICY_DENIED.
 */
export function followUpPlan(plan: TaskPlan, kept: KeptBrowsers): TaskPlan {
  const sessionId = plan.input.session_id;
  if (!sessionId) return plan;
  const session = kept.peek(sessionId, plan.tenant);
  if (!session) throw new KeptSessionNotFoundError(sessionId);
  const allowed = plan.input.domains;
  const wider = allowed ? session.domains.filter((d) => !patternWithin(d, allowed)) : [];
  if (wider.length > 0) {
    throw new AppError(
      'POLICY_DENIED',
      `the kept browser ${sessionId} may reach ${wider.join(', ')}, outside this task's domains (${allowed?.join(', ')}); omit domains to continue with the kept browser's`,
      { status: 403 },
    );
  }
  return { ...plan, input: { ...plan.input, domains: [...session.domains] } };
}

/**
 * A follow-up without its own `domains` is admitted with the kept browser's (so its start_url is
 * checked against them, and they against the tenant's policy as it is now).
 */
export function inheritKeptDomains(
  input: BrowserRunTaskInput,
  tenant: string,
  kept: KeptBrowsers,
): BrowserRunTaskInput {
  if (!input.session_id || input.domains) return input;
  const domains = kept.peek(input.session_id, tenant)?.domains;
  if (!domains || domains.includes('*')) return input;
  return { ...input, domains: [...domains] };
}
