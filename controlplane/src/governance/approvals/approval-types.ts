/**
 * `model_safety`: the model provider's own safety signal (OpenAI, Gemini) on a reply;
 * `file_upload`: the page asked for a provided file and the policy holds it for a supervisor.
 */
export type ApprovalKind =
  | 'credential'
  | 'navigation'
  | 'action'
  | 'call_user'
  | 'model_safety'
  | 'file_upload';
export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'expired';

export interface ApprovalRequest {
  taskId: string | null;
  tenant: string;
  kind: ApprovalKind;
  /** Why approval is needed, shown to the supervisor (never a secret value). */
  reason: string;
  detail: Record<string, unknown>;
  /** The current screen, sent along to the supervisor chats. */
  screenshot?: Buffer | null;
  timeoutMs: number;
  /**
   * Called once the request is stored and pending, with its record (the task run shows it as
   * `awaiting_approval` with the approval id); must not throw.
   */
  onPending?: ((approval: ApprovalRecord) => void) | undefined;
}

export type ApprovalOutcome =
  | { approved: true; approvalId: string; by: string }
  | { approved: false; approvalId: string; by: string | null; why: 'denied' | 'expired' };

/** Asks a supervisor; resolves when answered or at the timeout (= denied). Rejects only on abort. */
export interface Approver {
  request(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalOutcome>;
}

export interface ApprovalRecord {
  id: string;
  taskId: string | null;
  tenant: string;
  kind: ApprovalKind;
  reason: string;
  detail: Record<string, unknown>;
  status: ApprovalStatus;
  requestedAt: number;
  expiresAt: number;
  answeredAt: number | null;
  answeredBy: string | null;
}
