import type { Action } from '@clawdie/jail-service/api';

/** `endTask`: an operator said no (or did not answer); the task ends with APPROVAL_DENIED. */
export type GateVerdict =
  | { allowed: true }
  | { allowed: false; message: string; endTask?: boolean };

/**
 * Decides a step's browser actions before any of them runs (policy, approvals). The loop refuses
 * the whole batch when the verdict is not allowed and tells the model `message`. Must not throw
 * except with an AbortError when `signal` fires.
 */
export type ActionGate = (
  request: {
    step: number;
    actions: readonly Action[];
    /**
     * Set when the model called `call_user(question)`: `allowed` then means an operator handled
     * it and the task continues; not allowed means the task ends with `call_user` as usual.
     */
    callUser?: string;
  },
  signal?: AbortSignal,
) => Promise<GateVerdict>;
