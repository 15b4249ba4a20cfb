import type { HandoffReason } from '../../governance/policy/handoff-schema.js';

export type { HandoffReason };

/** How a takeover ended: handed back (with the supervisor's note), timed out, or the task ended. */
export type HandoffOutcome =
  | { kind: 'handed_back'; note: string | null }
  | { kind: 'timed_out'; onTimeout: 'end_call_user' | 'abort' };

export interface HandoffRequest {
  reason: HandoffReason;
  step: number;
  /** What the model said (call_user content) or what the detector saw; never a field value. */
  summary: string | null;
}

/**
 * The loop's takeover port (controlplane/src/browser/takeover/task-handoff.ts builds it from the policy's
 * `handoff` block). While `request` is pending the loop neither screenshots nor calls the model.
 */
export interface LoopHandoff {
  /** The situations the policy hands over on. */
  readonly on: ReadonlySet<HandoffReason>;
  /**
   * Reads the page signals after a step's screenshot; a reason in `on` that is newly seen, or
   * null. Must not throw (a failed read is null).
   */
  detect(signal?: AbortSignal): Promise<HandoffReason | null>;
  /** Puts the task in needs_user and waits; rejects only when `signal` aborts. */
  request(request: HandoffRequest, signal?: AbortSignal): Promise<HandoffOutcome>;
}
