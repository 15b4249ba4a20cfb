// Follows one remote task to its end: the SSE stream first (resuming with Last-Event-ID), then,
// if the stream cannot be kept up, polling GET /v1/tasks/:id.
import { setTimeout as sleep } from 'node:timers/promises';
import type { CompactResult } from '../src/tasks/task-input.js';
import {
  type ControlplaneClient,
  parseCompactResult,
  parseStepProgress,
  type TaskSnapshot,
} from './controlplane-client.js';
import { ControlplaneError } from './errors.js';
import type { TaskProgress } from './format.js';
import {
  backoffDelay,
  defaultRetryPolicy,
  EventStreamLostError,
  followEventStream,
  type RetryPolicy,
  type ServerSentEvent,
} from './sse-client.js';

export interface FollowTaskOptions {
  signal?: AbortSignal | undefined;
  /** Called for the task's status changes and each finished step; must not throw. */
  onProgress: (progress: TaskProgress) => void;
  /** Reconnection of the stream, and tolerated consecutive failures while polling. */
  retry?: RetryPolicy;
  pollIntervalMs?: number;
  idleTimeoutMs?: number;
  /** How long the stream may go without an event before GET /v1/tasks/:id is checked. */
  stallCheckMs?: number;
}

/**
 * Resolves with the task's compact result. While the stream is silent for `stallCheckMs` (no
 * event; heartbeats do not count) it asks GET /v1/tasks/:id whether the task has ended, so a
 * result event that never arrives cannot hang the tool call. Rejects with the signal's reason on
 * abort, with ControlplaneError when the task is unknown (404) or the controlplane stays
 * unreachable through both the stream retries and the polling retries.
 */
export async function followTask(
  client: ControlplaneClient,
  traceId: string,
  options: FollowTaskOptions,
): Promise<CompactResult> {
  const retry = options.retry ?? defaultRetryPolicy;
  const stallCheckMs = options.stallCheckMs ?? 10_000;
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  let result: CompactResult | null = null;
  let timer: NodeJS.Timeout | undefined;
  let following = true;
  const armStallCheck = (): void => {
    clearTimeout(timer);
    if (!following) return;
    timer = setTimeout(() => {
      client.getTask(traceId, signal).then(
        (snapshot) => {
          if (!snapshot.result) return armStallCheck();
          result ??= snapshot.result;
          stop.abort();
        },
        () => armStallCheck(),
      );
    }, stallCheckMs);
  };
  try {
    armStallCheck();
    await followEventStream({
      open: (lastEventId, connection) => client.openTaskEvents(traceId, lastEventId, connection),
      onEvent: (event) => {
        armStallCheck();
        result ??= handleEvent(event, traceId, options.onProgress);
        return result !== null;
      },
      signal,
      retry,
      ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
    });
  } catch (error) {
    if (result) return result;
    if (!(error instanceof EventStreamLostError)) throw error;
  } finally {
    following = false;
    clearTimeout(timer);
  }
  return result ?? pollTask(client, traceId, { ...options, retry });
}

function handleEvent(
  event: ServerSentEvent,
  traceId: string,
  onProgress: (progress: TaskProgress) => void,
): CompactResult | null {
  const source = `GET /v1/tasks/${traceId}/events (${event.event} event)`;
  let data: unknown;
  try {
    data = JSON.parse(event.data);
  } catch {
    throw new ControlplaneError(
      'CONTROLPLANE_BAD_RESPONSE',
      `controlplane ${source}: data is not JSON`,
    );
  }
  switch (event.event) {
    case 'result':
      return parseCompactResult(data, source);
    case 'step':
      onProgress({ trace_id: traceId, status: 'running', step: parseStepProgress(data, source) });
      return null;
    case 'status': {
      const status = (data as { status?: unknown }).status;
      const reason = (data as { reason?: unknown }).reason;
      if (status === 'needs_user')
        onProgress({
          trace_id: traceId,
          status,
          step: null,
          ...(typeof reason === 'string' ? { reason } : {}),
        });
      else if (status === 'awaiting_approval') {
        const approval = (data as { approval?: TaskProgress['approval'] }).approval;
        onProgress({ trace_id: traceId, status, step: null, ...(approval ? { approval } : {}) });
      } else if (status === 'queued' || status === 'running' || status === 'paused')
        onProgress({ trace_id: traceId, status, step: null });
      return null;
    }
    default:
      return null;
  }
}

async function pollTask(
  client: ControlplaneClient,
  traceId: string,
  options: FollowTaskOptions & { retry: RetryPolicy },
): Promise<CompactResult> {
  const { signal, retry } = options;
  const intervalMs = options.pollIntervalMs ?? 1000;
  let failures = 0;
  let reported = 0;
  for (;;) {
    let delayMs = intervalMs;
    try {
      const snapshot = await client.getTask(traceId, signal);
      failures = 0;
      if (snapshot.result) return snapshot.result;
      const latest = latestStep(snapshot);
      if (latest && latest.step > reported) {
        reported = latest.step;
        options.onProgress({ trace_id: traceId, status: 'running', step: latest });
      }
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (!(error instanceof ControlplaneError) || !error.retryable) throw error;
      failures += 1;
      if (failures > retry.attempts) {
        throw new ControlplaneError(
          'CONTROLPLANE_UNREACHABLE',
          `lost contact with the controlplane while following task ${traceId} (${error.message}); the task may still be running: check GET /v1/tasks/${traceId}`,
          { retryable: false, cause: error },
        );
      }
      delayMs = backoffDelay(retry, failures);
    }
    await sleep(delayMs, undefined, signal ? { signal } : {});
  }
}

/** The last step of a snapshot as progress (the REST step view has no action list). */
function latestStep(snapshot: TaskSnapshot): TaskProgress['step'] {
  const step = snapshot.steps.at(-1);
  if (!step) return null;
  return {
    trace_id: snapshot.task.trace_id,
    step: step.index,
    max_steps: snapshot.task.max_steps,
    outcome: step.outcome,
    actions: [],
    thought: step.thought,
    message: step.outcome_message,
    timings_ms: { capture: 0, model: 0, execute: 0 },
  };
}
