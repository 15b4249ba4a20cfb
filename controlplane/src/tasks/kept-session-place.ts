// Where a kept browser lives when several replicas share one store: only in the memory of the
// replica that ran the task that kept it. Its session id names that task (kept-browsers.ts), and
// the task's row names the replica; the live instances say whether that replica is still there.
import { keptSessionTaskId } from '../browser/provider/kept-browsers.js';
import { AppError } from '../errors.js';
import type { InstanceRecord } from '../platform/store/instance-repository.js';
import type { TaskRecord } from '../platform/store/task-records.js';
import type { TaskRepository } from '../platform/store/task-repository.js';

/**
 * `elsewhere`: another live replica holds it (`instance`); `gone`: the replica that held it is
 * no longer live; `unknown`: here, or no task of the tenant kept it (the local answer stands).
 */
export type KeptSessionPlace =
  | { where: 'elsewhere'; task: TaskRecord; instance: InstanceRecord }
  | { where: 'gone'; task: TaskRecord; instance: string }
  | { where: 'unknown' };

/** Finds where session `sessionId` of `tenant` (undefined: any tenant, admin) is kept. */
export type LocateKeptSession = (
  sessionId: string,
  tenant: string | undefined,
) => Promise<KeptSessionPlace>;

export function createKeptSessionLocator(deps: {
  /** This replica's instance id. */
  self: string;
  repository: Pick<TaskRepository, 'getTask'>;
  /** The live instances (`DataDirOwner.live`). */
  live: () => Promise<InstanceRecord[]>;
}): LocateKeptSession {
  return async (sessionId, tenant) => {
    const taskId = keptSessionTaskId(sessionId);
    const task = taskId ? await deps.repository.getTask(taskId, tenant) : null;
    const holder = task?.ownerInstance;
    if (!task || !holder || holder === deps.self) return { where: 'unknown' };
    const instance = (await deps.live()).find((live) => live.id === holder);
    return instance
      ? { where: 'elsewhere', task, instance }
      : { where: 'gone', task, instance: holder };
  };
}

/** The kept browser is in the memory of another live replica, which this request cannot reach (409). */
export class SessionOnOtherReplicaError extends AppError {
  declare readonly code: 'SESSION_ON_OTHER_REPLICA';
  constructor(sessionId: string, replica: InstanceRecord) {
    const at = replica.url ? ` (${replica.url})` : '';
    super(
      'SESSION_ON_OTHER_REPLICA',
      `the kept browser ${sessionId} is held by controlplane ${replica.id}${at}: start the follow-up with REST POST /v1/tasks (forwarded to that replica) or connect to that replica`,
      { status: 409 },
    );
    this.name = 'SessionOnOtherReplicaError';
  }
}

/** The replica that held the kept browser is gone, and the browser with it (404). */
export class KeptSessionGoneError extends AppError {
  declare readonly code: 'SESSION_NOT_FOUND';
  constructor(sessionId: string, replica: string) {
    super(
      'SESSION_NOT_FOUND',
      `the kept browser ${sessionId} was held by controlplane ${replica}, which is gone (its browser went with it); run the task without session_id`,
      { status: 404 },
    );
    this.name = 'KeptSessionGoneError';
  }
}

/** The error for a follow-up whose session is not held here, given where it is kept. */
export function notHeldHere(sessionId: string, place: KeptSessionPlace): AppError | null {
  if (place.where === 'elsewhere') return new SessionOnOtherReplicaError(sessionId, place.instance);
  if (place.where === 'gone') return new KeptSessionGoneError(sessionId, place.instance);
  return null;
}
