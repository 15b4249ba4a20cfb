import { decideAction } from './decide-action.js';
import type { ActionGate } from './gate-types.js';
import { policySchema } from './policy-schema.js';

/** The decision rules of a task without a tenant policy: any host, refuse outside its domains. */
const noPolicy = policySchema.parse({
  tenant: 'unpoliced',
  domains: { allow: ['*'], outside: 'deny' },
  max_steps: 500,
});

/**
 * The gate of a task with no tenant policy (`allowAllPlan`: the labelled demo, replays, services
 * built without a policy): each action is decided where it lands with the same rules as a policy
 * gate, against the task's own `domains` only — a navigation (a URL, or a link or form that
 * leaves the origin or posts) or a target frame outside them is refused. A secret placeholder is
 * left to the placeholder guard (refused there, audited `credential-refused`). No policy rows are audited (there is no policy); the refused step is.
 * `call_user` is not handled by anyone, so it ends the task. Named so that every unpoliced path
 * shows up in review: grep for `unpolicedGate`.
 */
export function unpolicedGate(domains: readonly string[] | undefined): ActionGate {
  return async function unpoliced(request) {
    if (request.callUser !== undefined)
      return { allowed: false, message: 'call_user ends the task', kind: 'action_rule' };
    if (request.safety !== undefined)
      return {
        allowed: false,
        message:
          'the model provider flagged this step, and a task without a policy has no supervisor to approve it',
        kind: 'approval_unavailable',
        endTask: true,
      };
    if (request.upload !== undefined)
      return {
        allowed: false,
        message: 'a held file chooser needs a supervisor, and a task without a policy has none',
        kind: 'approval_unavailable',
        endTask: true,
      };
    if (!request.action) return { allowed: true };
    const { action, landing } = request.action;
    // Typed text decides nothing here: placeholders are the placeholder guard's to refuse.
    const decided =
      action.type === 'type' ? { ...action, text: action.text.endsWith('\n') ? '\n' : '' } : action;
    const decision = decideAction(decided, {
      policy: noPolicy,
      taskDomains: domains,
      currentUrl: landing.url,
      target: landing.target,
      credentialMode: 'none',
    });
    if (decision.decision === 'allow') return { allowed: true };
    const message =
      decision.kind === 'navigation' || decision.kind === 'frame_origin'
        ? `Refused: ${decision.reason}; this task may only visit ${domains?.join(', ')}.`
        : `Refused: ${decision.reason}.`;
    return { allowed: false, message, kind: decision.kind ?? 'action_rule' };
  };
}
