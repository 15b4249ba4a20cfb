import type { ImageCodec } from '@clawdie/kit/images';
import type { ActionResult, NetworkEvidence } from '@clawdie/kit/jail-api';
import type { BrowserOperator, Screenshot } from '../../browser/operator/browser-operator.js';
import type { WaitCondition } from '../../browser/wait/wait-types.js';
import type { Clock } from '../../clock.js';
import type { ActionGate, RefusalKind } from '../../governance/policy/gate-types.js';
import type { StepOutcome } from '../../platform/store/task-records.js';
import type { LiveTaskStatus, PendingApproval } from '../../tasks/live-status.js';
import type { FinalAnswerCheck } from '../../tasks/result-schema.js';
import type { CompactResult, TaskResultStatus } from '../../tasks/task-input.js';
import type { CallUsage } from '../model/call-usage.js';
import type { ModelRetry, VisionModel } from '../model/chat-types.js';
import type { ImageEncoding } from '../model/image-encoder.js';
import type { ModelServer } from '../model/model-server.js';
import type { ModelProfile } from '../profiles/profile-types.js';
import type { PlannedStep } from '../uitars/index.js';
import type { HandoffOutcome, HandoffReason, LoopHandoff } from './handoff-types.js';
import type { LoopGuardOptions } from './loop-guard.js';

/**
 * How a loop ends: the task's own result statuses, so nothing maps one onto the other (a throw is
 * mapped once, `endingOf` in tasks/task-ending.ts).
 */
export type LoopStatus = TaskResultStatus;

export type LoopErrorCode =
  | 'MODEL_UNAVAILABLE'
  | 'MODEL_TIMEOUT'
  | 'MODEL_REJECTED'
  | 'MODEL_EMPTY_REPLY'
  | 'MODEL_BAD_RESPONSE'
  | 'OPERATOR_UNAVAILABLE'
  | 'OPERATOR_BAD_RESPONSE'
  | 'HOST_LOST'
  | 'PARSE_FAILED'
  | 'ENVIRONMENT_ERROR'
  | 'START_URL_FAILED'
  | 'TASK_TIMEOUT'
  | 'RESULT_SCHEMA_MISMATCH'
  | 'APPROVAL_DENIED'
  | 'SESSION_INJECT_FAILED'
  | 'SECRET_UNAVAILABLE'
  /** A security decision's audit row could not be committed (a full disk): nothing more ran. */
  | 'AUDIT_WRITE_FAILED'
  | 'STUCK'
  | 'INTERNAL';

export interface LoopOptions {
  instruction: string;
  /** The model profile: request shape, reply parser, coordinates, image policy. */
  profile: ModelProfile;
  actionSpace: 'browser' | 'computer';
  maxSteps: number;
  /** Consecutive unusable replies (unparseable or unmappable) before the task ends in error. */
  maxParseFailures: number;
  imageWindow: number;
  /** The model images' format and qualities (agent/model/image-encoder.ts). */
  imageEncoding: ImageEncoding;
  /** The task's model server, where it was asked (it may allow the profile's preferred format). */
  modelServer?: ModelServer | undefined;
  waitMs: number;
  scrollAmount: number;
  /** Hosts `navigate` may go to (`*.x` for subdomains); unset means no restriction here. */
  allowedDomains?: readonly string[] | undefined;
  /** Validates `finished(content)`; a failure is fed back once, then ends RESULT_SCHEMA_MISMATCH. */
  checkFinalAnswer?: FinalAnswerCheck | undefined;
  /** Loop/stuck detection settings (defaults: DEFAULT_LOOP_GUARD); `false` turns it off. */
  guard?: Partial<LoopGuardOptions> | false | undefined;
  /** Checked when the model calls finished(); unmet criteria send it back to work. */
  successCriteria?: readonly WaitCondition[] | undefined;
  /** Hand over to a person before the first step (a failed `logged_in_check`). */
  startWithHandoff?: 'login' | undefined;
  /** Model-call retries the whole task may spend (CLAWDIE_MODEL_TASK_RETRIES); unset: no bound. */
  modelRetryBudget?: number | undefined;
}

export interface LoopDeps {
  model: VisionModel;
  operator: BrowserOperator;
  clock: Clock;
  /** The process's image codec: the model's screenshots and the guard's thumbnails. */
  images: ImageCodec;
  /**
   * The one sink of the task run's events (tasks/run-stream.ts `publish`): receives every event in
   * order; awaited. Must not throw (a throw ends the task as INTERNAL).
   */
  emit: (event: LoopEvent) => void | Promise<void>;
  signal?: AbortSignal;
  /**
   * Policy check of each action where it lands, before it runs (policy/action-gate.ts), or
   * `unpolicedGate(domains)` for a task without a tenant policy. Required: there is no ungated
   * loop.
   */
  gate: ActionGate;
  /** Awaited at the start of every step: blocks while the task is paused; rejects on abort. */
  waitWhilePaused?: (signal?: AbortSignal) => Promise<void>;
  /** Checks success criteria; default: the operator's URL only (see verify-done.ts). */
  verifier?: DoneVerifier;
  /** Human takeover (policy `handoff`); absent: call_user ends the task, nothing is detected. */
  handoff?: LoopHandoff;
  /**
   * Lines for the model from outside the loop (a download finished), taken at the start of each
   * step and shown with its screenshot. Must not throw.
   */
  notes?: () => readonly string[];
}

export interface ExecutedAction {
  planned: Extract<PlannedStep, { kind: 'browser' }>;
  result: ActionResult;
}

/**
 * The one event type of a task run, in the order it happens: what the agent loop emits (steps,
 * guard, takeover, verification) and what its owner, the task run (tasks/task-run.ts), publishes
 * around it (`task-started`, `status-changed`, `task-ended`). Every reader — the trace, the audit,
 * the numbered SSE log, MCP progress, stuck notices, the CLI's progress lines — subscribes to it.
 */
export type LoopEvent = StepEvent | RunEvent;

/** What the task run publishes around the loop; the loop itself never emits these. */
export type RunEvent =
  /** The run holds its browser and starts (the row's started_at, the audit's task-started). */
  | { type: 'task-started'; at: number; model?: { name: string; profile: string } }
  /**
   * The run's live status changed; the trace (the first recorder) writes it to the row before
   * the other readers see it.
   */
  | {
      type: 'status-changed';
      status: LiveTaskStatus;
      /** Why a person is needed (`needs_user` only): call_user, stuck, login, otp, captcha. */
      reason?: HandoffReason;
      /** The approval it waits for (`awaiting_approval` only). */
      approval?: PendingApproval;
    }
  /** The run ended: its row holds the ending, the browser was kept or released. The last event. */
  | { type: 'task-ended'; result: CompactResult };

/** What the agent loop emits, step by step. */
export type StepEvent =
  | { type: 'step-started'; step: number; at: number }
  | { type: 'screenshot-taken'; step: number; screenshot: Screenshot; captureMs: number }
  | {
      type: 'prediction-received';
      step: number;
      text: string;
      thought: string | null;
      reflection: string | null;
      modelMs: number;
      requestBytes: number;
      imageCount: number;
      /** The call's tokens (the server's, or estimated), images and latency split. */
      usage: CallUsage;
    }
  | {
      type: 'actions-executed';
      step: number;
      executed: ExecutedAction[];
      executeMs: number;
      /** The requests the step's actions caused (absent where the surface reports none). */
      network?: NetworkEvidence;
    }
  | {
      type: 'step-ended';
      step: number;
      outcome: StepOutcome;
      message: string | null;
      /** Set when the step (a reply, or one of its actions) was refused: why, for the audit. */
      refusal?: RefusalKind;
      at: number;
    }
  | { type: 'final-screenshot-taken'; screenshot: Screenshot }
  /** The model call of this step failed and is tried again (attempt, reason, delay). */
  | ({ type: 'model-retried'; step: number } & ModelRetry)
  /** The loop guard told the model it is repeating itself (the note rides on the next screenshot). */
  | {
      type: 'loop-nudged';
      step: number;
      reason: 'repeat' | 'stagnation';
      level: number;
      count: number;
      message: string;
    }
  | { type: 'loop-stopped'; step: number; reason: 'repeat' | 'stagnation'; message: string }
  /** No visible progress for the configured time: for supervisors (Telegram, dashboard). */
  | { type: 'task-stuck'; step: number; at: number; idleMs: number; summary: string }
  /** A person was asked to take over the browser; the model is not called until it ends. */
  | { type: 'handoff-started'; step: number; reason: HandoffReason; at: number }
  | {
      type: 'handoff-ended';
      step: number;
      reason: HandoffReason;
      outcome: HandoffOutcome['kind'];
      at: number;
    }
  /** finished() was checked against the task's success criteria. */
  | {
      type: 'done-verified' | 'done-rejected';
      step: number;
      missing: string[];
      unverified: string[];
    };

export interface LoopResult {
  status: LoopStatus;
  /** `finished(content=…)` for `finished`; the model's question for `call_user`. */
  summary: string | null;
  error: { code: LoopErrorCode; message: string } | null;
  stepCount: number;
  /** The final answer parsed and validated against `result_schema`, when one was given. */
  resultData?: unknown;
}

/** What one loop iteration ends with (run-step, execute-plan, finish-step). */
export type StepResult =
  | { kind: 'continue' }
  | { kind: 'unusable'; message: string }
  /** A person is needed (a detector, call_user): the loop hands over, then goes on or ends. */
  | { kind: 'handoff'; reason: HandoffReason; summary: string | null }
  | { kind: 'terminal'; result: Omit<LoopResult, 'stepCount'> };

/** The verify-before-done check of a terminal `finished()` step. */
export type VerifyResult =
  | { ok: true; unverified: string[] }
  | { ok: false; missing: string[]; unverified: string[] };

export interface DoneVerifier {
  /** Checks every criterion once. Rejects only on transport failures of the probe or judge. */
  verify(criteria: readonly WaitCondition[], signal?: AbortSignal): Promise<VerifyResult>;
}
