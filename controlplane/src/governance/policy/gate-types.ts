import type { Action } from '@clawdie/kit/jail-api';
import type { ActionLanding } from './landing-facts.js';

/**
 * Why a step was refused, as the audit records it (`step-refused`, data.kind): the policy part
 * that refused (navigation, frame origin, host rule, other action rule, credential, credential
 * field), the supervisor's answer (denied, expired, no approver), the reply limit, or the page
 * moving on between the landing and the action (`landing_changed`).
 */
export type RefusalKind =
  | 'navigation'
  | 'frame_origin'
  | 'host_rule'
  | 'action_rule'
  | 'credential'
  | 'credential_field'
  | 'approval_denied'
  | 'approval_expired'
  | 'approval_unavailable'
  | 'reply_limit'
  | 'landing_changed';

/** `endTask`: a supervisor said no (or did not answer); the task ends with APPROVAL_DENIED. */
export type GateVerdict =
  | { allowed: true }
  | { allowed: false; message: string; kind: RefusalKind; endTask?: boolean };

/** A provided file the page asked for, held until a supervisor decides. */
export interface HeldUpload {
  file: { name: string; bytes: number; sha256: string };
  /** The origin of the page that opened the chooser. */
  origin: string;
  /** The input's `accept` attribute. */
  accept: string;
}

/** One action of a reply, about to run, and where it lands now. */
export interface GatedAction {
  action: Action;
  /** Its place in the reply (0-based) and the reply's number of browser actions. */
  index: number;
  count: number;
  landing: ActionLanding;
}

/**
 * Decides each browser action of a step where and when it lands, just before it runs (policy,
 * approvals); the loop refuses that action and what follows it when the verdict is not allowed,
 * and tells the model `message`. Must not throw except with an AbortError when `signal` fires, or
 * an AuditWriteError (AUDIT_WRITE_FAILED) when the decision's audit row cannot be committed: the
 * loop then runs nothing more and the task ends with that code.
 */
export type ActionGate = (
  request: {
    step: number;
    action?: GatedAction;
    /**
     * Set when the model called `call_user(question)`: `allowed` then means a supervisor handled
     * it and the task continues; not allowed means the task ends with `call_user` as usual.
     */
    callUser?: string;
    /**
     * Set when the model provider flagged the reply (its own safety signal): `allowed` means a
     * supervisor approved going on; nothing else may allow it.
     */
    safety?: readonly { code: string; message: string }[];
    /**
     * Set when the page opened a file chooser and the policy holds it for a supervisor
     * (`files.upload_approval: needs_approval`): `allowed` means the file may be set.
     */
    upload?: HeldUpload;
  },
  signal?: AbortSignal,
) => Promise<GateVerdict>;
