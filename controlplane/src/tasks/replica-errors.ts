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

/**
 * The replica that ran a task is gone (410): with `files` (a directory, or null when unknown) its
 * trace files (screenshots, downloads, recording) are on that replica's data dir and not readable
 * here; without, what lived in its memory (the browser's live feed, a takeover) went with it.
 */
export class ReplicaGoneError extends AppError {
  declare readonly code: 'REPLICA_GONE';
  constructor(taskId: string, replica: string, files?: string | null) {
    const gone = `task ${taskId} ran on controlplane ${replica}, which is gone`;
    super(
      'REPLICA_GONE',
      files === undefined
        ? `${gone}: its browser, live view and takeover went with it, and the task is ended INTERRUPTED by the next sweep of dead controlplanes`
        : `${gone}; its files (screenshots, downloads, recording) are on that replica's data dir${files ? ` (${files})` : ''}: mount one data dir path shared by every replica, or ask the replica that holds that data dir`,
      { status: 410 },
    );
    this.name = 'ReplicaGoneError';
  }
}

/** The replica that runs a task is live but cannot be reached at its recorded URL (502). */
export class ReplicaUnreachableError extends AppError {
  declare readonly code: 'REPLICA_UNREACHABLE';
  constructor(taskId: string, replica: string, url: string | null, cause?: unknown) {
    super(
      'REPLICA_UNREACHABLE',
      url
        ? `task ${taskId} runs on controlplane ${replica}, which did not answer at ${url} (set CLAWDIE_REPLICA_URL to an address the other replicas reach)`
        : `task ${taskId} runs on controlplane ${replica}, which has not recorded its address yet; try again`,
      { status: 502, cause },
    );
    this.name = 'ReplicaUnreachableError';
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
