import { replayThenLive } from '@clawdie/kit/sse';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { TaskRecord } from '../../platform/store/task-records.js';
import type { TaskRepository } from '../../platform/store/task-repository.js';
import type { LiveTaskStatus } from '../../tasks/live-status.js';
import { sweptErrorCodes } from '../../tasks/task-event-follower.js';
import type { NumberedEvent, TaskStreamEvent } from '../../tasks/task-events.js';
import type { TaskService } from '../../tasks/task-service.js';
import { compactResultOf } from './task-views.js';

/**
 * `GET /v1/tasks/:id/events`: Server-Sent Events `status`, `step` (one per finished step), `stuck`
 * and a final `result`, each with an `id`; a client reconnecting with `Last-Event-ID` (header or
 * `last_event_id` query) gets only what it missed. The events are read from the store, so any
 * replica on the database streams any task, live, whichever process runs it. The stream ends after
 * `result`, and at once for an ended task resumed at or past its last event. A task whose process
 * died before its `result` ends with the row's once another replica's recovery marked it
 * INTERRUPTED.
 */
export function streamTaskEvents(
  c: Context,
  task: TaskRecord,
  deps: { tasks: TaskService; repository: TaskRepository },
) {
  const lastId = Number(c.req.header('last-event-id') ?? c.req.query('last_event_id') ?? 0) || 0;
  const { feed } = deps.tasks;
  return streamSSE(c, async (stream) => {
    const stored = await feed.since(task.id, 0);
    if (stored.length === 0 && (await olderThanEvents(task, deps.repository))) {
      // A task from before events were stored: rebuilt from its steps.
      for (const entry of await fromStore(task, deps.repository))
        if (entry.id > lastId) await stream.writeSSE({ id: String(entry.id), ...message(entry) });
      return;
    }
    // An ended task sends nothing more: a client resuming at or past its last event is done.
    if (stored.some(isResult) && (stored.at(-1)?.id ?? 0) <= lastId) return;
    const interrupted = async () => {
      const row = await deps.repository.getTask(task.id);
      return row?.errorCode && sweptErrorCodes.has(row.errorCode) ? compactResultOf(row) : null;
    };
    await replayThenLive<NumberedEvent>(stream, {
      source: {
        since: () => [],
        subscribe: (listener) => feed.follow(task.id, lastId, listener, { interrupted }),
      },
      lastId,
      idOf: (entry) => entry.id,
      message,
      isLast: isResult,
    });
  });
}

const isResult = (entry: NumberedEvent) => entry.event.type === 'result';

const message = ({ event }: NumberedEvent) => ({
  event: event.type,
  data: JSON.stringify(event.data),
});

/** A task with no stored event that ended or has steps ran before events were stored. */
async function olderThanEvents(task: TaskRecord, repository: TaskRepository): Promise<boolean> {
  return compactResultOf(task) !== null || (await repository.listSteps(task.id)).length > 0;
}

async function fromStore(task: TaskRecord, repository: TaskRepository): Promise<NumberedEvent[]> {
  const steps = await repository.listSteps(task.id);
  const actions = await Promise.all(steps.map((step) => repository.listActions(step.id)));
  const events: TaskStreamEvent[] = steps.map((step, index) => ({
    type: 'step',
    data: {
      trace_id: task.id,
      step: step.index,
      step_count: step.index,
      max_steps: task.maxSteps,
      outcome: step.outcome,
      actions: (actions[index] ?? []).map((action) => action.type),
      thought: step.thought,
      message: step.outcomeMessage,
      timings_ms: {
        capture: step.captureMs ?? 0,
        model: step.modelMs ?? 0,
        execute: step.executeMs ?? 0,
      },
    },
  }));
  const result = compactResultOf(task);
  if (result) events.push({ type: 'result', data: result });
  else
    events.unshift({
      type: 'status',
      data: {
        trace_id: task.id,
        // Unended (no result): the row's status is one of the live ones.
        status: task.status as LiveTaskStatus,
      },
    });
  return events.map((event, index) => ({ id: index + 1, event }));
}
