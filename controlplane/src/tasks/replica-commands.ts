// Task commands across controlplane replicas on one store: the replica that receives an abort,
// pause or resume for a task another replica runs sends it over the notify channel; the owner
// runs it on its task service and replies; the sender waits (bounded) for the reply or for the
// task's row to show the effect (a notification is a hint, the row is the truth).
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import type { AuditLog } from '../governance/audit/audit-log.js';
import type { NotifyChannel } from '../platform/notify/notify-channel.js';
import { type TaskRecord, terminalStatuses } from '../platform/store/task-records.js';
import type { TaskRepository } from '../platform/store/task-repository.js';
import { ReplicaUnavailableError, TaskOwnerGoneError } from './replica-errors.js';
import { type ReplicaCommands, runLocally, type TaskCommand } from './task-commands.js';
import type { TaskService } from './task-service.js';

/** The notify channel commands and their replies travel on (each names its `to` replica). */
export const TASK_COMMANDS_CHANNEL = 'clawdie_task_commands';

const commandSchema = z.strictObject({
  to: z.string(),
  from: z.string(),
  id: z.string(),
  op: z.enum(['abort', 'pause', 'resume']),
  taskId: z.string(),
});
const replySchema = z.strictObject({ to: z.string(), re: z.string(), ok: z.boolean() });
const messageSchema = z.union([commandSchema, replySchema]);
type Message = z.infer<typeof messageSchema>;

export interface ReplicaCommandsDeps {
  /** This replica's instance id. */
  self: string;
  /** Where this replica's own tasks run: commands from other replicas are run here. */
  tasks: TaskService;
  repository: Pick<TaskRepository, 'getTask'>;
  /** A channel every replica of the store listens on (PostgreSQL LISTEN/NOTIFY). */
  notify: NotifyChannel;
  /** The ids of the controlplane instances still alive (data-dir-owner's `pruneGone`). */
  liveInstances: () => Promise<readonly string[]>;
  audit: AuditLog;
  clock: Clock;
  logger: Logger;
  newId: () => string;
  /** How long a sender waits for the owner to act; default 10 s. */
  timeoutMs?: number;
  /** How often a sender re-reads the task's row meanwhile; default 200 ms. */
  pollMs?: number;
}

export interface OpenReplicaCommands extends ReplicaCommands {
  /** Stops listening; a sender still waiting gets ReplicaUnavailableError. */
  close(): Promise<void>;
}

/** What the row says about `command`: it took effect, the task ended without it, or not yet. */
function effectOf(row: TaskRecord | null, command: TaskCommand): 'done' | 'ended' | 'pending' {
  if (!row) return 'ended';
  if (terminalStatuses.includes(row.status))
    return command === 'abort' && row.status === 'aborted' ? 'done' : 'ended';
  if (command === 'pause') return row.status === 'paused' ? 'done' : 'pending';
  if (command === 'resume') return row.status === 'paused' ? 'pending' : 'done';
  return 'pending';
}

function parse(payload: string): Message | null {
  try {
    return messageSchema.parse(JSON.parse(payload));
  } catch {
    return null;
  }
}

/** Listens for commands addressed to this replica (and replies to its own); resolves once it does. */
export async function openReplicaCommands(deps: ReplicaCommandsDeps): Promise<OpenReplicaCommands> {
  const logger = deps.logger.child({ module: 'replica-commands' });
  const timeoutMs = deps.timeoutMs ?? 10_000;
  const pollMs = deps.pollMs ?? 200;
  const replies = new Map<string, (ok: boolean) => void>();
  const wakers = new Set<() => void>();
  let closed = false;
  const send = (message: Message) =>
    deps.notify.notify(TASK_COMMANDS_CHANNEL, JSON.stringify(message));

  /** Only a task this replica runs (active in its own task service) is acted on. */
  async function execute(message: z.infer<typeof commandSchema>): Promise<void> {
    const { taskId, op, from } = message;
    const ok =
      deps.tasks.isActive(taskId) &&
      (await runLocally(deps.tasks, taskId, op).catch((error: unknown) => {
        logger.error({ err: error, taskId, command: op }, 'task command failed');
        return false;
      }));
    logger.info({ taskId, command: op, from, ok }, 'task command from another replica');
    await send({ to: from, re: message.id, ok }).catch((error: unknown) => {
      logger.warn({ err: error, taskId }, 'task command reply not sent');
    });
  }

  const stop = await deps.notify.listen(TASK_COMMANDS_CHANNEL, (payload) => {
    const message = parse(payload);
    if (!message || message.to !== deps.self) return;
    if ('re' in message) replies.get(message.re)?.(message.ok);
    else void execute(message);
  });
  // Replies sent while the channel was down are lost: waiting senders re-read the row now.
  const stopResumed = deps.notify.onResumed(() => {
    for (const wake of wakers) wake();
  });

  return {
    self: deps.self,
    async send(task, command, actor) {
      const owner = task.ownerInstance ?? '';
      if (!(await deps.liveInstances()).includes(owner))
        throw new TaskOwnerGoneError(task.id, owner);
      await deps.audit.append({
        type: 'task-command-forwarded',
        actor,
        taskId: task.id,
        data: { command, replica: owner },
      });
      const id = deps.newId();
      const reply: { ok: boolean | null } = { ok: null };
      let wake = () => {};
      const woken = () => wake();
      replies.set(id, (ok) => {
        reply.ok = ok;
        wake();
      });
      wakers.add(woken);
      const nap = (ms: number) => {
        const early = new AbortController();
        wake = () => early.abort();
        return deps.clock.sleep(ms, early.signal).catch(() => undefined);
      };
      try {
        await send({ to: owner, from: deps.self, id, op: command, taskId: task.id });
        const deadline = deps.clock.now() + timeoutMs;
        while (!closed) {
          if (reply.ok === true) return true;
          const seen = effectOf(await deps.repository.getTask(task.id), command);
          if (seen !== 'pending') return seen === 'done';
          if (reply.ok === false) return false;
          const left = deadline - deps.clock.now();
          if (left <= 0) break;
          await nap(Math.min(pollMs, left));
        }
        logger.warn({ taskId: task.id, command, replica: owner }, 'task command not acted on');
        throw new ReplicaUnavailableError(task.id, owner, timeoutMs);
      } finally {
        replies.delete(id);
        wakers.delete(woken);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      stopResumed();
      for (const wake of wakers) wake();
      await stop();
    },
  };
}
