import type { ApprovalRecord } from './approval-types.js';

/**
 * Something supervisors should know about a task, with no answer expected. `stuck`: the loop saw
 * no visible progress for the configured time; `summary` says what it was doing (never a secret).
 */
export type SupervisorNotice = StuckNotice | NeedsUserNotice;

/** A task needs a person (takeover): the reason, and a signed single-use link to take control. */
export interface NeedsUserNotice {
  kind: 'needs_user';
  taskId: string;
  tenant?: string | undefined;
  reason: string;
  /** What the model asked or the detector saw; never a field value. */
  summary: string;
  link: string;
  expiresAt: number;
  screenshot?: Buffer | null | undefined;
}

export interface StuckNotice {
  kind: 'stuck';
  taskId: string;
  tenant?: string | undefined;
  step: number;
  summary: string;
  /** The task's current screen, when it could be taken. */
  screenshot?: Buffer | null | undefined;
}

/**
 * Where approval requests go (Telegram, later the dashboard). `requestApproval` rejects when the
 * channel is unreachable; the approval service logs and audits that, and the API still works.
 */
export interface Notifier {
  readonly name: string;
  requestApproval(record: ApprovalRecord, screenshot: Buffer | null): Promise<void>;
  /** The approval was answered or expired: e.g. remove the buttons. Must not throw. */
  approvalClosed(record: ApprovalRecord): Promise<void>;
  /**
   * Sends a plain notice to the supervisors. Rejects when the channel is unreachable; the caller
   * (notice-sender.ts) logs and audits that and never lets it reach the task.
   */
  notify?(notice: SupervisorNotice): Promise<void>;
}
