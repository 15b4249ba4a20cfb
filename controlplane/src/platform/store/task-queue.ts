// The port of the shared task queue replicas dispatch tasks through (PostgreSQL only; the adapter
// is pg/pg-task-queue.ts over pg-boss). A job only dispatches: the task's row is the truth, and
// the replica that fetches a job claims the row (TaskRepository.claimTask) before it runs it.

/** One dispatched task as the queue holds it: the job's id, the task's id and its admitted plan. */
export interface TaskJob {
  id: string;
  taskId: string;
  /** The plan as JSON (tasks/task-plan.ts TaskPlan). */
  plan: unknown;
}

export interface TaskQueue {
  /** Adds a job for `taskId`; resolves once it is stored (any replica may fetch it from then). */
  send(taskId: string, plan: unknown): Promise<void>;
  /**
   * The oldest waiting job, now active for this process (no other fetch returns it until it is
   * failed or expires), or null when none waits.
   */
  fetch(): Promise<TaskJob | null>;
  /** The job did its work (its task was claimed, here or elsewhere, or had ended). */
  complete(jobId: string): Promise<void>;
  /** The job could not be handled now; it is fetched again (bounded retries). */
  fail(jobId: string, reason: string): Promise<void>;
  /**
   * Those of `taskIds` that still have a job that may run: waiting, to be retried or fetched.
   * A task without one (its job failed its last retry, or was archived or deleted unrun) is
   * never dispatched again.
   */
  dispatchable(taskIds: readonly string[]): Promise<Set<string>>;
  /** Stops the queue's maintenance and closes its connections; idempotent. */
  close(): Promise<void>;
}
