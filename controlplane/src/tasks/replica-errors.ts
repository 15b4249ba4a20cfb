import { AppError } from '../errors.js';

/** The replica that runs the task did not act on a command within the bound (503). */
export class ReplicaUnavailableError extends AppError {
  declare readonly code: 'REPLICA_UNAVAILABLE';
  constructor(taskId: string, replica: string, waitedMs: number) {
    super(
      'REPLICA_UNAVAILABLE',
      `task ${taskId} runs on controlplane ${replica}, which did not act within ${waitedMs} ms; try again (if that controlplane died, its tasks end INTERRUPTED once its heartbeat expires)`,
      { status: 503 },
    );
    this.name = 'ReplicaUnavailableError';
  }
}

/** The task's row names a controlplane that is no longer registered as live (409). */
export class TaskOwnerGoneError extends AppError {
  declare readonly code: 'TASK_OWNER_GONE';
  constructor(taskId: string, replica: string) {
    super(
      'TASK_OWNER_GONE',
      `task ${taskId} ran on controlplane ${replica}, which is gone; nothing runs it any more, and it is ended INTERRUPTED by the next sweep of dead controlplanes`,
      { status: 409 },
    );
    this.name = 'TaskOwnerGoneError';
  }
}
