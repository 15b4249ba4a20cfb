// One HTTP attempt at a model reply: the request, its overall timeout, the first-token
// timeout of a streamed reply, and what the answer was, as a value the retry loop can judge.
import { type AttemptResult, failed } from './attempt-result.js';
import { readBoundedText } from './bounded-body.js';
import { readCompletion } from './completion-reader.js';
import { parseRetryAfter, statusRetry } from './retry-policy.js';
import type { Wire } from './wires/wire-types.js';

export interface AttemptOptions {
  endpoint: string;
  headers: Record<string, string>;
  fetch: typeof fetch;
  /** The whole attempt, request to last byte. */
  timeoutMs: number;
  /**
   * Request to first content token, counted only once the server answers with an event stream
   * (a server that ignores `stream: true` is held to `timeoutMs` alone); 0 turns it off.
   */
  firstTokenTimeoutMs: number;
  /** Wall-clock now, for a Retry-After HTTP-date. */
  now: () => number;
  /** How a 2xx reply reads. */
  wire: Wire;
}

/** Runs one attempt. Rejects only with the caller's abort; every other ending is a value. */
export async function attemptCompletion(
  options: AttemptOptions,
  body: string,
  signal?: AbortSignal,
): Promise<AttemptResult> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const firstToken = new AbortController();
  const combined = AbortSignal.any(
    signal ? [signal, timeout, firstToken.signal] : [timeout, firstToken.signal],
  );
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let firstTokenMs: number | null = null;
  const hooks = {
    onStream() {
      if (options.firstTokenTimeoutMs <= 0) return;
      const left = options.firstTokenTimeoutMs - (performance.now() - started);
      timer = setTimeout(() => firstToken.abort(), Math.max(0, left));
    },
    onFirstToken() {
      firstTokenMs = performance.now() - started;
      clearTimeout(timer);
    },
  };
  try {
    const init = { method: 'POST', headers: options.headers, body, signal: combined };
    const response = await options.fetch(options.endpoint, init);
    if (!response.ok) return await refused(response, options.now());
    const result = await readCompletion(response, hooks, options.wire);
    return result.ok ? { ok: true, completion: { ...result.completion, firstTokenMs } } : result;
  } catch (error) {
    if (signal?.aborted) throw error;
    if (firstToken.signal.aborted) {
      const message = `model streamed no token within ${options.firstTokenTimeoutMs} ms`;
      return failed('MODEL_TIMEOUT', message, 'first_token_timeout');
    }
    if (timeout.aborted) {
      const message = `model did not answer within ${options.timeoutMs} ms`;
      return failed('MODEL_TIMEOUT', message, 'timeout');
    }
    const cause = (error as { cause?: { code?: unknown } }).cause?.code;
    const message = `cannot reach the model at ${options.endpoint}: ${(error as Error).message}${typeof cause === 'string' ? ` (${cause})` : ''}`;
    return failed('MODEL_UNAVAILABLE', message, 'network', { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/** A non-2xx answer: retryable (429, 5xx) or the request's fault (4xx), with its Retry-After. */
async function refused(response: Response, now: number): Promise<AttemptResult> {
  const detail = ((await readBoundedText(response, 64 * 1024).catch(() => '')) ?? '').slice(0, 300);
  const retry = statusRetry(response.status);
  const message = `model server answered HTTP ${response.status}${detail ? `: ${detail}` : ''}`;
  const retryAfterMs = retry?.honoursRetryAfter
    ? parseRetryAfter(response.headers.get('retry-after'), now)
    : null;
  return failed(retry ? 'MODEL_UNAVAILABLE' : 'MODEL_REJECTED', message, retry?.reason ?? null, {
    status: response.status,
    retryAfterMs,
  });
}
