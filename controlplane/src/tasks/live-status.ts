// The live states of a task run as every surface reports them (row, SSE, REST, MCP, dashboard).

/** The statuses of an unended task. */
export type LiveTaskStatus = 'queued' | 'running' | 'paused' | 'needs_user' | 'awaiting_approval';

/** The approval an `awaiting_approval` task waits for (answer it at /v1/approvals/{id}). */
export interface PendingApproval {
  id: string;
  kind: string;
  reason: string;
  /** The action waiting for the answer, as the approval card shows it (null for call_user). */
  action: unknown;
}
