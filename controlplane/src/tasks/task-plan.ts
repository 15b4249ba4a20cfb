import type { Principal } from '../governance/auth/scopes.js';
import { actorOf } from '../governance/auth/scopes.js';
import type { Decision, TenantPolicy } from '../governance/policy/policy-schema.js';
import type { BrowserRunTaskInput, CredentialMode } from './task-input.js';

/** A session profile a plan injects: admission checked it against the policy and the store. */
export interface SessionUse {
  readonly name: string;
  readonly origins: readonly string[];
  /** A supervisor must approve the injection first (policy `require_approval`). */
  readonly requireApproval: boolean;
}

/**
 * What the gate of a planned task enforces: a tenant policy (the action gate decides every batch
 * against it), or nothing but the task's own domains (`allow-all`: the labelled demo, replays and
 * services built without a policy; `why` says which).
 */
export type PlanRules =
  | {
      readonly kind: 'policy';
      readonly policy: TenantPolicy;
      readonly credentialMode: CredentialMode;
      /** The saved session injected before the first step (credential_mode session). */
      readonly session?: SessionUse;
      /** The task's effective domains (undefined = any the policy allows). */
      readonly domains: readonly string[] | undefined;
      /** Admission's verdict (audited by the caller). */
      readonly decision: Decision;
    }
  | { readonly kind: 'allow-all'; readonly why: string };

/**
 * An admitted task: who it runs for, the input as it will run (domains defaulted from the policy,
 * max_steps capped, recording forced) and the rules its gate enforces. `TaskService.start` takes
 * only this, so nothing starts before admission decided.
 */
export interface TaskPlan {
  /** The id admission was audited under; `start` runs the task with it (else makes one). */
  readonly taskId?: string;
  readonly tenant: string;
  readonly actor: string;
  readonly input: BrowserRunTaskInput;
  readonly rules: PlanRules;
  /** Limits on keeping the browser for a follow-up (`keep_session`); default `defaultKeepRules`. */
  readonly keep?: KeepRules;
  /** The input's `files` as admission resolved them (host paths; the model sees only names). */
  readonly uploads?: readonly UploadSource[];
}

/** One file a task provides: its name, its real host path (checked at admission) and size. */
export interface UploadSource {
  readonly name: string;
  readonly path: string;
  readonly bytes: number;
}

/** How long a kept browser may idle, and how many one tenant may hold. */
export interface KeepRules {
  readonly idleTtlMs: number;
  readonly maxSessions: number;
}

/** Without a policy: 5 minutes idle, two kept browsers per tenant. */
export const defaultKeepRules: KeepRules = { idleTtlMs: 300_000, maxSessions: 2 };

/** A policy's `keep_session` block as plan rules. */
export function keepRulesOf(policy: TenantPolicy): KeepRules {
  return {
    idleTtlMs: policy.keep_session.idle_ttl_s * 1000,
    maxSessions: policy.keep_session.max_sessions,
  };
}

/** Admission refused the task; nothing was started. */
export interface Denied {
  readonly denied: true;
  /**
   * `POLICY_DENIED` (outside the tenant's policy), `INVALID_INPUT`, or `JUDGE_UNAVAILABLE` (a
   * visual condition and no vision judge configured).
   */
  readonly code: 'POLICY_DENIED' | 'INVALID_INPUT' | 'JUDGE_UNAVAILABLE';
  readonly tenant: string;
  readonly actor: string;
  readonly decision: Decision;
}

export const isDenied = (outcome: TaskPlan | Denied): outcome is Denied => 'denied' in outcome;

/**
 * A plan with no tenant policy: its gate is `unpolicedGate` (only the task's own domains are
 * checked). For the labelled demo, replays and services built without a policy — never for a
 * request a tenant policy should govern.
 */
export function allowAllPlan(
  input: BrowserRunTaskInput,
  principal: Principal,
  why: string,
): TaskPlan {
  return {
    tenant: principal.tenant,
    actor: actorOf(principal),
    input,
    rules: { kind: 'allow-all', why },
  };
}
