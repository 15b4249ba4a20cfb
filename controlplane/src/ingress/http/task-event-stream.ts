import { replayThenLive } from '@clawdie/kit/sse';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { TaskRecord } from '../../platform/store/task-records.js';
import type { TaskRepository } from '../../platform/store/task-repository.js';
import type { LiveTaskStatus } from '../../tasks/live-status.js';
import type { NumberedEvent, TaskStreamEvent } from '../../tasks/task-events.js';
import type { TaskService } from '../../tasks/task-service.js';
import { compactResultOf } from './task-views.js';

/**
 * `GET /v1/tasks/:id/events`: Server-Sent Events `status`, `step` (one per finished step) and a
 * final `result`, each with an `id`; a client reconnecting with `Last-Event-ID` (header or
 * `last_event_id` query) gets only what it missed. The stream ends after `result`, and at once
 * for an ended task resumed at or past its last event.
 */
export function streamTaskEvents(
  c: Context,
  task: TaskRecord,
  deps: { tasks: TaskService; repository: TaskRepository },
) {
  const lastId = Number(c.req.header('last-event-id') ?? c.req.query('last_event_id') ?? 0) || 0;
  return streamSSE(c, async (stream) => {
    // An ended task sends nothing more: a client resuming at or past its last event is done.
    const all = deps.tasks.events.since(task.id, 0);
    const ended = all.some((entry) => entry.event.type === 'result');
    if (ended && (all.at(-1)?.id ?? 0) <= lastId) return;
    if (!deps.tasks.events.has(task.id) || (!ended && !deps.tasks.isActive(task.id))) {
      // Not in memory (an older task, or one from before a restart): rebuild from the store.
      for (const entry of await fromStore(task, deps.repository))
        if (entry.id > lastId) await stream.writeSSE({ id: String(entry.id), ...message(entry) });
      return;
    }
    const { events } = deps.tasks;
    await replayThenLive<NumberedEvent>(stream, {
      source: {
        since: (id) => events.since(task.id, id),
        subscribe: (listener) => events.subscribe(task.id, listener),
      },
      lastId,
      idOf: (entry) => entry.id,
      message,
      isLast: (entry) => entry.event.type === 'result',
    });
  });
}

const message = ({ event }: NumberedEvent) => ({
  event: event.type,
  data: JSON.stringify(event.data),
});

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
