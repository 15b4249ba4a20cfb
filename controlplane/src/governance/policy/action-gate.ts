import type { Action } from '@clawdie/kit/jail-api';
import type { Logger } from 'pino';
import type { BrowserOperator } from '../../browser/operator/browser-operator.js';
import type { CredentialMode } from '../../tasks/task-input.js';
import type { ApprovalKind, Approver } from '../approvals/approval-types.js';
import { appendOrFail } from '../audit/append-or-log.js';
import type { AuditLog } from '../audit/audit-log.js';
import { auditedAction, capText } from '../audit/bounded-text.js';
import { decideCallUser } from './decide.js';
import { decideAction } from './decide-action.js';
import { hostOf } from './domain-match.js';
import type { ActionGate, GateVerdict, HeldUpload } from './gate-types.js';
import { type ActionLanding, navigationOf } from './landing-facts.js';
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
  /** Called after a supervisor approved typing secret `name` on `host` (mints the grant). */
  onSecretApproved?: ((name: string, host: string) => Promise<void>) | undefined;
}

/**
 * The policy check the loop runs before each action, against where it lands: the decision is
 * audited with the frame origins, the destination and the reason (committed before anything
 * else, else AuditWriteError and nothing allowed); `deny` refuses with the reason;
 * `needs_approval` asks a supervisor (the card shows the frame origin and, for typing, the field
 * kind) and refuses unless approved. Approved secret use mints a grant for the focused frame's
 * host before the action runs.
 */
export function createActionGate(deps: ActionGateDeps): ActionGate {
  /**
   * Records a decision before it takes effect. Fails closed: a row that cannot be committed (a
   * full disk) rejects with AuditWriteError, so the action is not run and the task ends
   * AUDIT_WRITE_FAILED (docs/security.md).
   */
  const audit = (data: Record<string, unknown>) =>
    appendOrFail(deps.audit, {
      type: 'policy-decided',
      actor: deps.actor,
      taskId: deps.taskId,
      data,
    });
  return async function gate({ step, action: gated, callUser, safety, upload }, signal) {
    if (callUser !== undefined) return handleCallUser(step, callUser, signal);
    if (safety !== undefined) return handleSafety(step, safety, signal);
    if (upload !== undefined) return handleUpload(step, upload, signal);
    if (!gated) return { allowed: true };
    const landing = await withUrl(gated.landing, signal);
    const { action } = gated;
    const decision = decideAction(action, {
      ...deps,
      currentUrl: landing.url,
      target: landing.target,
    });
    await audit({
      subject: 'action',
      step,
      index: gated.index,
      action: auditedAction(action),
      ...whereItLands(action, landing),
      decision: decision.decision,
      reason: capText(decision.reason),
      ...(decision.kind ? { kind: decision.kind } : {}),
    });
    if (decision.decision === 'allow') return { allowed: true };
    if (decision.decision === 'deny')
      return {
        allowed: false,
        message: `Refused by policy: ${decision.reason}.`,
        kind: decision.kind ?? 'action_rule',
      };
    return askSupervisor(action, decision, landing, signal);
  };

  /** The landing with the page URL filled in when the loop did not know it yet. */
  async function withUrl(landing: ActionLanding, signal?: AbortSignal): Promise<ActionLanding> {
    if (landing.url !== null) return landing;
    const url = await deps.operator.state(signal).then(
      (state) => state.url,
      () => null,
    );
    return { ...landing, url };
  }

  function currentShot(signal?: AbortSignal) {
    return deps.operator.screenshot(signal).catch(() => null);
  }

  /** `call_user`: ends the task, unless the policy has a supervisor handle it and one approves. */
  async function handleCallUser(step: number, question: string, signal?: AbortSignal) {
    const decision = decideCallUser(deps.policy, question || null);
    await audit({ subject: 'call_user', step, ...decision });
    if (decision.decision !== 'needs_approval' || !deps.approver)
      return { allowed: false, message: decision.reason, kind: 'action_rule' } as GateVerdict;
    const outcome = await deps.approver.request(
      {
        screenshot: await currentShot(signal).then((shot) => shot?.jpeg ?? null),
        taskId: deps.taskId,
        tenant: deps.tenant,
        kind: 'call_user',
        reason: decision.reason,
        detail: { question },
        timeoutMs: deps.policy.approvals.timeout_s * 1000,
      },
      signal,
    );
    const verdict: GateVerdict = outcome.approved
      ? { allowed: true }
      : {
          allowed: false,
          message: `not handled (${outcome.why})`,
          kind: outcome.why === 'expired' ? 'approval_expired' : 'approval_denied',
        };
    return verdict;
  }

  /** A provider's safety signal: only a supervisor's approval lets the reply run. */
  async function handleSafety(
    step: number,
    signals: readonly { code: string; message: string }[],
    signal?: AbortSignal,
  ): Promise<GateVerdict> {
    const reason = `the model provider flagged this step: ${signals.map((s) => `${s.code}: ${s.message}`).join('; ')}`;
    await audit({
      subject: 'model_safety',
      step,
      decision: 'needs_approval',
      reason: capText(reason),
    });
    const checks = signals.map(({ code, message }) => ({ code, message: capText(message) }));
    return askOrEnd('model_safety', reason, { checks }, signal);
  }

  /** A held file chooser: the file is set only once a supervisor approves. */
  async function handleUpload(step: number, upload: HeldUpload, signal?: AbortSignal) {
    const { name, bytes, sha256 } = upload.file;
    const reason = `the page at ${capText(upload.origin, 200)} asks for the file "${name}" (${bytes} bytes)`;
    const file = { name, bytes, sha256 };
    await audit({
      subject: 'upload',
      step,
      file,
      origin: capText(upload.origin),
      decision: 'needs_approval',
      reason,
    });
    const detail = { file, origin: capText(upload.origin), accept: capText(upload.accept, 200) };
    return askOrEnd('file_upload', reason, detail, signal);
  }

  /** A supervisor decides; anything but an approval ends the task. */
  async function askOrEnd(
    kind: ApprovalKind,
    reason: string,
    detail: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<GateVerdict> {
    if (!deps.approver)
      return {
        allowed: false,
        message: `Refused: ${reason}; it needs supervisor approval, and no approver is configured.`,
        kind: 'approval_unavailable',
        endTask: true,
      };
    const outcome = await deps.approver.request(
      {
        screenshot: await currentShot(signal).then((shot) => shot?.jpeg ?? null),
        taskId: deps.taskId,
        tenant: deps.tenant,
        kind,
        reason: capText(reason),
        detail,
        timeoutMs: deps.policy.approvals.timeout_s * 1000,
      },
      signal,
    );
    if (outcome.approved) return { allowed: true };
    return {
      allowed: false,
      message: `Refused: ${reason} (${outcome.why})`,
      kind: outcome.why === 'expired' ? 'approval_expired' : 'approval_denied',
      endTask: true,
    };
  }

  /** Allowed when approved; else the refusal, which ends the task (a supervisor said no). */
  async function askSupervisor(
    action: Action,
    decision: Decision,
    landing: ActionLanding,
    signal?: AbortSignal,
  ): Promise<GateVerdict> {
    if (!deps.approver)
      return {
        allowed: false,
        message: `Refused: ${decision.reason} needs supervisor approval, and no approver is configured.`,
        kind: 'approval_unavailable',
      };
    const secrets = action.type === 'type' ? secretNamesIn(action.text) : [];
    const shot = await currentShot(signal);
    const focused = landing.target?.frames.at(-1) ?? null;
    const outcome = await deps.approver.request(
      {
        taskId: deps.taskId,
        tenant: deps.tenant,
        kind: kindOf(action, secrets, landing),
        reason: decision.reason,
        // For the supervisor: the action (typed text only as its placeholders, never a value),
        // the page, the frame the target is in and the field it types into, and the
        // screenshot's geometry, so the target can be drawn on it.
        detail: {
          action: auditedAction(action),
          url: landing.url,
          ...whereItLands(action, landing),
          ...(focused ? { frame_origin: focused.origin } : {}),
          ...(action.type === 'type' && landing.target?.element
            ? {
                field: landing.target.element.field,
                autocomplete: landing.target.element.autocomplete,
              }
            : {}),
          ...(action.type === 'type' ? { text: action.text } : {}),
          ...(shot ? { screen: shot.meta } : {}),
        },
        screenshot: shot?.jpeg ?? null,
        timeoutMs: deps.policy.approvals.timeout_s * 1000,
      },
      signal,
    );
    if (!outcome.approved) {
      const expired = outcome.why === 'expired';
      const why = expired ? 'no supervisor answered before the timeout' : `denied by ${outcome.by}`;
      return {
        allowed: false,
        message: `Supervisor approval refused (${why}): ${decision.reason}.`,
        kind: expired ? 'approval_expired' : 'approval_denied',
        endTask: true,
      };
    }
    const host = focused ? (hostOf(focused.origin) ?? hostOf(focused.url)) : null;
    for (const name of secrets) if (host) await deps.onSecretApproved?.(name, host);
    return { allowed: true };
  }
}

/** The frame origins (top first), the destination and the navigation, bounded for the audit. */
function whereItLands(action: Action, landing: ActionLanding): Record<string, unknown> {
  const target = landing.target;
  const navigation = navigationOf(action, target);
  return {
    ...(target ? { origins: target.frames.slice(0, 8).map((frame) => capText(frame.origin)) } : {}),
    ...(target?.destination
      ? {
          destination: {
            kind: target.destination.kind,
            method: capText(target.destination.method, 16),
            url: capText(target.destination.url),
          },
        }
      : {}),
    ...(navigation ? { navigation: capText(navigation) } : {}),
  };
}

function kindOf(action: Action, secrets: string[], landing: ActionLanding): ApprovalKind {
  if (secrets.length > 0) return 'credential';
  return navigationOf(action, landing.target) ? 'navigation' : 'action';
}
