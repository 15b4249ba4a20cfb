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

/** Pause or resume of a task that waits in the shared queue, where nothing can hold it (409). */
export class TaskQueuedError extends AppError {
  declare readonly code: 'TASK_QUEUED';
  constructor(taskId: string, command: string) {
    super(
      'TASK_QUEUED',
      `task ${taskId} waits in the shared task queue, where it cannot ${command}; abort it, or ${command} it once it runs`,
      { status: 409 },
    );
    this.name = 'TaskQueuedError';
  }
}

/**
 * The controlplane closed while a task it submitted still waited in the shared queue: another
 * replica runs it; follow it there (GET /v1/tasks/:id/events).
 */
export class TaskLeftQueuedError extends AppError {
  declare readonly code: 'TASK_LEFT_QUEUED';
  constructor(taskId: string) {
    super(
      'TASK_LEFT_QUEUED',
      `this controlplane closed while task ${taskId} waited in the shared queue; another replica runs it (GET /v1/tasks/${taskId}/events)`,
      { status: 503 },
    );
    this.name = 'TaskLeftQueuedError';
  }
}
