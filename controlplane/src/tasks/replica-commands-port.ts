// The port to the replica that runs a task: what the task service's shared queue and every
// surface's command path (task-commands.ts) need, without importing either.
import type { TaskRecord } from '../platform/store/task-records.js';

export type TaskCommand = 'abort' | 'pause' | 'resume';

/** The port to the replica that runs a task (replica-commands.ts); absent: this process only. */
export interface ReplicaCommands {
  /** This replica's instance id: `ownerInstance` of the tasks it runs. */
  readonly self: string;
  /**
   * Asks the replica that owns `task` to run `command`, audited with `actor`, and waits (bounded)
   * until it did. True once it acted; false when the task is not active there (it ended). Throws
   * TaskOwnerGoneError (409) when that replica is gone, ReplicaUnavailableError (503) when it does
   * not act in time.
   */
  send(task: TaskRecord, command: TaskCommand, actor: string): Promise<boolean>;
}
