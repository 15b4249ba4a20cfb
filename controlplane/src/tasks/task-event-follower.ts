// One follower of one task's stored events (task-event-feed.ts): it listens first, then reads the
// store after the last id it delivered — at once, on each notification of its task, when the
// channel resumes after a lost connection, and every `pollMs` — one read at a time, so every event
// is delivered once and in order.
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { NotifyChannel } from '../platform/notify/notify-channel.js';
import type { TaskEventStore } from '../platform/store/task-event-repository.js';
import type { NumberedEvent, TaskStreamEvent } from './task-events.js';
import type { CompactResult } from './task-input.js';

/**
 * The channel every replica's followers listen on; the payload is `{"taskId","seq"}` JSON, or
 * `{"taskId","interrupted":true}` from a sweep that ended the task (announceInterrupted).
 */
export const TASK_EVENTS_CHANNEL = 'clawdie_task_events';

/** The error codes of tasks a sweep ended without their run (their rows hold the result). */
export const sweptErrorCodes: ReadonlySet<string> = new Set(['INTERRUPTED', 'DISPATCH_FAILED']);

/**
 * Tells the followers of these tasks, on every replica, that a sweep of dead controlplanes just
 * ended them INTERRUPTED: they store and deliver the row's result now, not at their next poll.
 */
export async function announceInterrupted(
  notify: Pick<NotifyChannel, 'notify'>,
  taskIds: readonly string[],
): Promise<void> {
  for (const taskId of taskIds)
    await notify.notify(TASK_EVENTS_CHANNEL, JSON.stringify({ taskId, interrupted: true }));
}

interface Follow {
  taskId: string;
  afterId: number;
  listener: (entry: NumberedEvent) => void;
  interrupted?: (() => Promise<CompactResult | null>) | undefined;
}

interface FollowerDeps {
  store: TaskEventStore;
  notify: NotifyChannel;
  clock: Clock;
  logger: Logger;
  /** The feed's append (task-event-feed.ts), which stores and announces. */
  append(taskId: string, seq: number, event: TaskStreamEvent, at: number): Promise<void>;
  pollMs: number;
}

/** Starts following; returns the stop (also called after the `result` event). */
export function followTaskEvents(follow: Follow, deps: FollowerDeps): () => void {
  const { taskId, listener } = follow;
  const { store, notify, logger } = deps;
  let last = follow.afterId;
  let stopped = false;
  let reading = false;
  let again = false;
  let unlisten: (() => Promise<void>) | null = null;

  const read = async (): Promise<void> => {
    if (stopped) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        const entries = await store.since(taskId, last).catch((error: unknown) => {
          logger.warn({ err: error, taskId }, 'task events not read; retrying');
          return [];
        });
        for (const entry of entries) {
          if (stopped || entry.id <= last) continue;
          last = entry.id;
          listener(entry);
          if (entry.event.type === 'result') stop();
        }
      } while (again && !stopped);
    } finally {
      reading = false;
    }
  };

  /** Stores the recovered row's result of a task whose process died (see FollowOptions). */
  const closeInterrupted = async (): Promise<void> => {
    const result = stopped ? null : await follow.interrupted?.().catch(() => null);
    if (!result || stopped) return;
    const stored = await store.since(taskId, 0).catch(() => null);
    if (!stored || stored.some((entry) => entry.event.type === 'result')) return void read();
    // Right after the last stored event; another follower storing it first wins (this one fails).
    const seq = (stored.at(-1)?.id ?? 0) + 1;
    await deps
      .append(taskId, seq, { type: 'result', data: result }, deps.clock.now())
      .catch(() => undefined);
    await read();
  };

  const tick = () => void read().then(closeInterrupted);
  const unresumed = notify.onResumed(() => void read());
  const poll = setInterval(tick, deps.pollMs);
  poll.unref();
  function stop() {
    if (stopped) return;
    stopped = true;
    clearInterval(poll);
    unresumed();
    void unlisten?.().catch(() => undefined);
  }
  const onHint = (payload: string) => {
    const hint = parseTaskEventHint(payload);
    if (hint?.taskId !== taskId) return;
    if (hint.interrupted) tick();
    else if (hint.seq > last) void read();
  };
  // Listening first, then the first read: an event stored in between is read, not missed.
  notify.listen(TASK_EVENTS_CHANNEL, onHint).then(
    (off) => {
      if (stopped) void off().catch(() => undefined);
      else unlisten = off;
      tick();
    },
    (error: unknown) => {
      logger.warn({ err: error, taskId }, 'task events not listened; polling');
      tick();
    },
  );
  return stop;
}

/** The `{taskId, seq}` or `{taskId, interrupted}` of a notification, or null for anything else. */
function parseTaskEventHint(
  payload: string,
): { taskId: string; seq: number; interrupted: boolean } | null {
  try {
    const hint = JSON.parse(payload) as { taskId?: unknown; seq?: unknown; interrupted?: unknown };
    if (typeof hint.taskId !== 'string') return null;
    if (hint.interrupted === true) return { taskId: hint.taskId, seq: 0, interrupted: true };
    return typeof hint.seq === 'number'
      ? { taskId: hint.taskId, seq: hint.seq, interrupted: false }
      : null;
  } catch {
    return null;
  }
}
