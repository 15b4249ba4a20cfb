import type { Action } from '@clawdie/jail-service/api';
import type { Logger } from 'pino';
import type { ApprovalKind, Approver } from '../approvals/approval-types.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { BrowserOperator } from '../operator/browser-operator.js';
import type { CredentialMode } from '../tasks/task-input.js';
import { decideAction, decideCallUser } from './decide.js';
import { hostOf } from './domain-match.js';
import type { ActionGate } from './gate-types.js';
import type { Decision, TenantPolicy } from './policy-schema.js';
import { secretNamesIn } from './secret-placeholders.js';

export interface ActionGateDeps {
  taskId: string;
  tenant: string;
  actor: string;
  policy: TenantPolicy;
  taskDomains: readonly string[] | undefined;
  credentialMode: CredentialMode;
  operator: BrowserOperator;
  audit: AuditLog;
  logger: Logger;
  /** Absent: every `needs_approval` is refused ("no approver configured"). */
  approver?: Approver | undefined;
  /** Called after an operator approved typing secret `name` on `host` (mints the grant). */
  onSecretApproved?: ((name: string, host: string) => Promise<void>) | undefined;
}

/**
 * The policy check the loop runs before each batch: every action is decided (and the decision
 * audited); `deny` refuses the batch with the reason; `needs_approval` asks an operator and
 * refuses unless approved. Approved secret use mints a grant before the batch runs.
 */
export function createActionGate(deps: ActionGateDeps): ActionGate {
  const audit = (data: Record<string, unknown>) => {
    try {
      deps.audit.append({ type: 'policy-decided', actor: deps.actor, taskId: deps.taskId, data });
    } catch (error) {
      deps.logger.error({ err: error }, 'audit append failed');
    }
  };
  return async function gate({ step, actions, callUser }, signal) {
    if (callUser !== undefined) return handleCallUser(step, callUser, signal);
    const currentUrl = await deps.operator.state(signal).then(
      (state) => state.url,
      () => null,
    );
    for (const action of actions) {
      const decision = decideAction(action, { ...deps, currentUrl });
      audit({ subject: 'action', step, action: describe(action), ...decision });
      if (decision.decision === 'allow') continue;
      if (decision.decision === 'deny') return refused(decision);
      const answer = await askOperator(action, decision, currentUrl, signal);
      if (answer) return { allowed: false, message: answer.message, endTask: answer.endTask };
    }
    return { allowed: true };
  };

  function currentScreen(signal?: AbortSignal): Promise<Buffer | null> {
    return currentShot(signal).then((shot) => shot?.jpeg ?? null);
  }

  function currentShot(signal?: AbortSignal) {
    return deps.operator.screenshot(signal).catch(() => null);
  }

  /** `call_user`: ends the task, unless the policy has an operator handle it and one approves. */
  async function handleCallUser(step: number, question: string, signal?: AbortSignal) {
    const decision = decideCallUser(deps.policy, question || null);
    audit({ subject: 'call_user', step, ...decision });
    if (decision.decision !== 'needs_approval' || !deps.approver)
      return { allowed: false as const, message: decision.reason };
    const outcome = await deps.approver.request(
      {
        screenshot: await currentScreen(signal),
        taskId: deps.taskId,
        tenant: deps.tenant,
        kind: 'call_user',
        reason: decision.reason,
        detail: { question },
        timeoutMs: deps.policy.approvals.timeout_s * 1000,
      },
      signal,
    );
    return outcome.approved
      ? { allowed: true as const }
      : { allowed: false as const, message: `not handled (${outcome.why})` };
  }

  /** Null when approved; else the refusal (and whether it ends the task). */
  async function askOperator(
    action: Action,
    decision: Decision,
    currentUrl: string | null,
    signal?: AbortSignal,
  ) {
    if (!deps.approver)
      return {
        message: `Refused: ${decision.reason} needs operator approval, and no approver is configured.`,
        endTask: false,
      };
    const secrets = action.type === 'type' ? secretNamesIn(action.text) : [];
    const shot = await currentShot(signal);
    const outcome = await deps.approver.request(
      {
        taskId: deps.taskId,
        tenant: deps.tenant,
        kind: kindOf(action, secrets),
        reason: decision.reason,
        // For the operator: the text as the model wrote it (secret placeholders, never a value),
        // and the screenshot's geometry, so the target can be drawn on it.
        detail: {
          action: describe(action),
          url: currentUrl,
          ...(action.type === 'type' ? { text: action.text } : {}),
          ...(shot ? { screen: shot.meta } : {}),
        },
        screenshot: shot?.jpeg ?? null,
        timeoutMs: deps.policy.approvals.timeout_s * 1000,
      },
      signal,
    );
    if (!outcome.approved) {
      const why =
        outcome.why === 'expired'
          ? 'no operator answered before the timeout'
          : `denied by ${outcome.by}`;
      return { message: `Operator approval refused (${why}): ${decision.reason}.`, endTask: true };
    }
    const host = hostOf(currentUrl ?? '');
    for (const name of secrets) if (host) await deps.onSecretApproved?.(name, host);
    return null;
  }
}

function refused(decision: Decision) {
  return { allowed: false as const, message: `Refused by policy: ${decision.reason}.` };
}

function kindOf(action: Action, secrets: string[]): ApprovalKind {
  if (secrets.length > 0) return 'credential';
  return action.type === 'navigate' || action.type === 'open_url' ? 'navigation' : 'action';
}

/** The action as audited and shown to operators: typed text only as its placeholders/length. */
export function describe(action: Action): Record<string, unknown> {
  if (action.type !== 'type') return { ...action };
  const secrets = secretNamesIn(action.text);
  return { type: 'type', chars: action.text.length, ...(secrets.length ? { secrets } : {}) };
}
