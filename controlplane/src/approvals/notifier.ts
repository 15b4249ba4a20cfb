import type { ApprovalRecord } from './approval-types.js';

/**
 * Where approval requests go (Telegram, later the dashboard). `requestApproval` rejects when the
 * channel is unreachable; the approval service logs and audits that, and the API still works.
 */
export interface Notifier {
  readonly name: string;
  requestApproval(record: ApprovalRecord, screenshot: Buffer | null): Promise<void>;
  /** The approval was answered or expired: e.g. remove the buttons. Must not throw. */
  approvalClosed(record: ApprovalRecord): Promise<void>;
}
