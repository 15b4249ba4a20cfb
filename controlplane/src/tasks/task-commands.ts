// Abort, pause and resume, the one way every surface (REST, dashboard) runs them: on this
// replica's task service when the task runs here, else through the replica that owns its row.
import { type TaskRecord, terminalStatuses } from '../platform/store/task-records.js';
import type { ReplicaCommands, TaskCommand } from './replica-commands-port.js';
import { TaskQueuedError } from './replica-errors.js';
import type { TaskService } from './task-service.js';

export type { ReplicaCommands, TaskCommand } from './replica-commands-port.js';

export interface TaskCommandDeps {
  tasks: TaskService;
  replicas?: ReplicaCommands | undefined;
}

/** On this process's task service: false when the task is not active here. */
export async function runLocally(
  tasks: TaskService,
  taskId: string,
  command: TaskCommand,
): Promise<boolean> {
  if (command === 'abort') return tasks.abort(taskId);
  return (await tasks[command]?.call(tasks, taskId)) ?? false;
}

/** The task is unended and its row names another live-or-not replica as its owner. */
export function runsElsewhere(task: TaskRecord, replicas: ReplicaCommands | undefined): boolean {
  return (
    replicas !== undefined &&
    task.ownerInstance !== null &&
    task.ownerInstance !== replicas.self &&
    !terminalStatuses.includes(task.status)
  );
}

/** The task waits in the shared queue of PostgreSQL replicas: queued, claimed by none yet. */
export function waitsInSharedQueue(task: TaskRecord, tasks: TaskService): boolean {
  return task.status === 'queued' && task.ownerInstance === null && tasks.abortQueued !== undefined;
}

/**
 * Runs `command` for `task`, whose caller the surface has already authorized (tenant, scope):
 * here when it runs here (exactly as with one process), else on its owner replica; an abort of a
 * task waiting in the shared queue on any replica (pause and resume of one: TaskQueuedError,
 * 409). True when accepted; false when the task is not active (it ended, or no replica runs it).
 */
export async function commandTask(
  deps: TaskCommandDeps,
  task: TaskRecord,
  command: TaskCommand,
  actor: string,
): Promise<boolean> {
  // Waiting in the shared queue (no owner yet): any replica ends it; nothing can hold it.
  if (waitsInSharedQueue(task, deps.tasks) && deps.tasks.abortQueued) {
    if (command !== 'abort') throw new TaskQueuedError(task.id, command);
    return deps.tasks.abortQueued(task.id, actor);
  }
  if (deps.replicas && !deps.tasks.isActive(task.id) && runsElsewhere(task, deps.replicas))
    return deps.replicas.send(task, command, actor);
  return runLocally(deps.tasks, task.id, command);
}
