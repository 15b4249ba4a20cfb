// HTTP client for the controlplane's /v1/tasks API (controlplane/src/ingress/http/task-routes.ts), used by
// the pi extension. Maps every failure to a ControlplaneError whose message names the request.
import type { StepProgress } from '../src/tasks/task-events.js';
import type { CompactResult } from '../src/tasks/task-input.js';
import { ControlplaneError } from './errors.js';
import type { BrowserRunTaskParams } from './parameters.js';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface ControlplaneClientOptions {
  /** Base URL without a trailing slash. */
  url: string;
  token: string | null;
  fetch?: FetchLike;
}

/** What `GET /v1/tasks/:id` returns, reduced to the fields the extension reads. */
export interface TaskSnapshot {
  task: { trace_id: string; status: string; max_steps: number; step_count: number };
  result: CompactResult | null;
  steps: Array<{
    index: number;
    outcome: string;
    outcome_message: string | null;
    thought: string | null;
  }>;
}

/** How `POST /v1/tasks/:id/abort` went: accepted, or the task had already ended (409). */
export type AbortOutcome = 'aborting' | 'already_ended';

export interface ControlplaneClient {
  readonly url: string;
  /** `POST /v1/tasks`; resolves with the new task's id. */
  startTask(input: BrowserRunTaskParams, signal?: AbortSignal): Promise<string>;
  /** `GET /v1/tasks/:id`. */
  getTask(traceId: string, signal?: AbortSignal): Promise<TaskSnapshot>;
  /** `GET /v1/tasks/:id/events` (SSE), resuming after `lastEventId`; resolves with the body. */
  openTaskEvents(
    traceId: string,
    lastEventId: string | null,
    signal: AbortSignal,
  ): Promise<ReadableStream<Uint8Array>>;
  /** `POST /v1/tasks/:id/abort` with its own timeout (never the caller's aborted signal). */
  abortTask(traceId: string, timeoutMs?: number): Promise<AbortOutcome>;
}

/**
 * Creates the client. Every method rejects with ControlplaneError: `CONTROLPLANE_UNREACHABLE`
 * (retryable) when no HTTP answer came, `CONTROLPLANE_REJECTED` with the server's `{error}`
 * message on 4xx/5xx (retryable for 5xx and 429), `CONTROLPLANE_BAD_RESPONSE` for an answer that
 * is not the documented shape. Aborts by the caller's signal reject with the signal's reason.
 */
export function createControlplaneClient(options: ControlplaneClientOptions): ControlplaneClient {
  const fetchImpl: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const base = options.url;

  async function request(
    method: 'GET' | 'POST',
    path: string,
    init: { body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetchImpl(`${base}${path}`, {
        method,
        headers,
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        ...(init.signal ? { signal: init.signal } : {}),
      });
    } catch (error) {
      if (init.signal?.aborted) throw init.signal.reason;
      throw new ControlplaneError(
        'CONTROLPLANE_UNREACHABLE',
        `controlplane at ${base} is unreachable (${method} ${path}: ${describeCause(error)}): start it (npm start) or point the extension at it with CLAWDIE_URL or --clawdie-url`,
        { retryable: true, cause: error },
      );
    }
    if (!response.ok) throw await rejection(method, path, response);
    return response;
  }

  return {
    url: base,
    async startTask(input, signal) {
      const response = await request('POST', '/v1/tasks', {
        body: input,
        ...(signal ? { signal } : {}),
      });
      const body = await readJson(response, 'POST /v1/tasks');
      if (!isRecord(body) || typeof body.trace_id !== 'string' || body.trace_id === '') {
        throw badResponse('POST /v1/tasks', 'no trace_id in the answer');
      }
      return body.trace_id;
    },
    async getTask(traceId, signal) {
      const path = `/v1/tasks/${encodeURIComponent(traceId)}`;
      const body = await readJson(
        await request('GET', path, signal ? { signal } : {}),
        `GET ${path}`,
      );
      if (!isRecord(body) || !isRecord(body.task) || !Array.isArray(body.steps)) {
        throw badResponse(`GET ${path}`, 'expected {task, result, steps}');
      }
      const result = body.result === null ? null : parseCompactResult(body.result, `GET ${path}`);
      return { ...(body as unknown as TaskSnapshot), result };
    },
    async openTaskEvents(traceId, lastEventId, signal) {
      const path = `/v1/tasks/${encodeURIComponent(traceId)}/events`;
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (lastEventId !== null) headers['last-event-id'] = lastEventId;
      const response = await request('GET', path, { headers, signal });
      if (!response.body) throw badResponse(`GET ${path}`, 'no response body');
      return response.body;
    },
    async abortTask(traceId, timeoutMs = 3000) {
      const path = `/v1/tasks/${encodeURIComponent(traceId)}/abort`;
      try {
        const response = await request('POST', path, { signal: AbortSignal.timeout(timeoutMs) });
        await response.body?.cancel();
        return 'aborting';
      } catch (error) {
        if (error instanceof ControlplaneError && error.status === 409) return 'already_ended';
        if (error instanceof Error && error.name === 'TimeoutError') {
          throw new ControlplaneError(
            'CONTROLPLANE_UNREACHABLE',
            `controlplane at ${base} did not answer POST ${path} within ${timeoutMs} ms`,
            { retryable: true, cause: error },
          );
        }
        throw error;
      }
    },
  };
}

/** Checks the compact result shape (status and trace_id are what callers rely on). */
export function parseCompactResult(value: unknown, source: string): CompactResult {
  const statuses = ['finished', 'max_steps', 'error', 'aborted', 'call_user'];
  if (
    !isRecord(value) ||
    typeof value.status !== 'string' ||
    !statuses.includes(value.status) ||
    typeof value.trace_id !== 'string'
  ) {
    throw badResponse(source, 'not a compact task result');
  }
  return value as unknown as CompactResult;
}

/** Checks a `step` event's data: the numbers the progress line needs, and the actions list. */
export function parseStepProgress(value: unknown, source: string): StepProgress {
  if (
    !isRecord(value) ||
    typeof value.step !== 'number' ||
    typeof value.max_steps !== 'number' ||
    !Array.isArray(value.actions)
  ) {
    throw badResponse(source, 'not a step progress event');
  }
  return value as unknown as StepProgress;
}

async function rejection(method: string, path: string, response: Response) {
  const text = await response.text().catch(() => '');
  let code: string | undefined;
  let message = text.trim().slice(0, 500) || response.statusText;
  try {
    const body: unknown = JSON.parse(text);
    if (isRecord(body) && isRecord(body.error)) {
      code = typeof body.error.code === 'string' ? body.error.code : undefined;
      if (typeof body.error.message === 'string') message = body.error.message;
      const issues = Array.isArray(body.error.issues) ? body.error.issues.filter(isRecord) : [];
      if (issues.length > 1) {
        message += ` (all issues: ${issues.map((issue) => `${String(issue.path) || '(body)'}: ${String(issue.message)}`).join('; ')})`;
      }
    }
  } catch {
    // Not JSON (a proxy's error page): the raw text is the best message there is.
  }
  const status = response.status;
  return new ControlplaneError(
    'CONTROLPLANE_REJECTED',
    `controlplane ${method} ${path} failed: HTTP ${status}${code ? ` ${code}` : ''}: ${message}`,
    {
      status,
      ...(code ? { serverCode: code } : {}),
      retryable: status >= 500 || status === 429,
    },
  );
}

async function readJson(response: Response, source: string): Promise<unknown> {
  try {
    return await response.json();
  } catch (error) {
    throw new ControlplaneError(
      'CONTROLPLANE_BAD_RESPONSE',
      `controlplane ${source}: the answer is not JSON`,
      {
        cause: error,
      },
    );
  }
}

function badResponse(source: string, problem: string): ControlplaneError {
  return new ControlplaneError(
    'CONTROLPLANE_BAD_RESPONSE',
    `controlplane ${source} sent an unexpected answer (${problem}); is CLAWDIE_URL pointing at a Clawdie controlplane?`,
  );
}

function describeCause(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (!(cause instanceof Error)) return String(cause);
  const code = (cause as { code?: unknown }).code;
  if (typeof code !== 'string' || cause.message.includes(code)) return cause.message || cause.name;
  return cause.message ? `${code}: ${cause.message}` : code;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
