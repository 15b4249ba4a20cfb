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

/** What a run is doing, as far as its live status goes. */
export interface RunState {
  needsUser: boolean;
  awaitingApproval: boolean;
  paused: boolean;
  started: boolean;
}

/** The one status a run in `state` reports: a person needed, then an approval, a pause, running. */
export function liveStatusOf(state: RunState): LiveTaskStatus {
  if (state.needsUser) return 'needs_user';
  if (state.awaitingApproval) return 'awaiting_approval';
  if (state.paused) return 'paused';
  return state.started ? 'running' : 'queued';
}

/** The pending approval an `awaiting_approval` status names, from its record. */
export function pendingApprovalOf(record: {
  id: string;
  kind: string;
  reason: string;
  detail: { action?: unknown };
}): PendingApproval {
  return {
    id: record.id,
    kind: record.kind,
    reason: record.reason,
    action: record.detail.action ?? null,
  };
}
