// Adapter: the model client over one wire — an OpenAI-compatible chat-completions endpoint (vLLM,
// Ollama, llama.cpp, OpenRouter) by default, or a hosted computer-use API (agent/model/wires/).
// docs/models.md "Client behaviour" describes its retries, limit and streaming.
import { type Clock, systemClock } from '../../clock.js';
import { ModelError } from '../../errors.js';
import type { AttemptResult, Completion } from './attempt-result.js';
import { failed } from './attempt-result.js';
import { type CallTiming, replyOf, startCallTiming } from './call-usage.js';
import type { ModelCallHooks, ModelReply, ModelRequest, VisionModel } from './chat-types.js';
import { createEndpointLimiter, type EndpointLimiter } from './endpoint-limiter.js';
import { attemptCompletion } from './model-attempt.js';
import { identifyModelServer } from './model-server.js';
import { createCallRetries, MAX_RETRY_DELAY_MS } from './retry-policy.js';
import { chatCompletionsWire } from './wires/chat-completions.js';
import type { Wire } from './wires/wire-types.js';

export interface OpenAiCompatibleModelOptions {
  /** Base URL up to and including `/v1`, e.g. `http://127.0.0.1:8000/v1`. */
  baseUrl: string;
  /** The provider dialect (default chat completions). */
  wire?: Wire;
  model: string;
  apiKey?: string | null;
  timeoutMs: number;
  /**
   * Retries per call after 5xx, network errors, timeouts and a 429 without Retry-After; a 429/503
   * with Retry-After may be waited out twice as often (retry-policy.ts `createCallRetries`).
   */
  retries: number;
  maxTokens: number;
  temperature: number;
  fetch?: typeof fetch;
  clock?: Clock;
  /** Jitter source, uniform in [0, 1) (default Math.random). */
  random?: () => number;
  /** First back-off in ms before jitter; doubles per retry (default 500). */
  backoffMs?: number;
  /** Cap on one wait, a Retry-After included (default 30 s). */
  maxDelayMs?: number;
  /** Requests in flight to this endpoint at most, across all tasks (default 4). */
  concurrency?: number;
  /** Or a limiter shared with other clients of the same endpoint. */
  limiter?: EndpointLimiter;
  /** Ask for a streamed reply (`stream: true`; default false). */
  stream?: boolean;
  /** With `stream`: request to first token, once the reply is an event stream; 0 is off. */
  firstTokenTimeoutMs?: number;
}

/** Creates the HTTP model client. Never sends more than `maxTokens` (servers reject 65535). */
export function createOpenAiCompatibleModel(options: OpenAiCompatibleModelOptions): VisionModel {
  const clock = options.clock ?? systemClock;
  const limiter = options.limiter ?? createEndpointLimiter(options.concurrency ?? 4);
  const wire = options.wire ?? chatCompletionsWire;
  const stream = wire.streams && (options.stream ?? false);
  const backoff = {
    baseMs: options.backoffMs ?? 500,
    maxMs: options.maxDelayMs ?? MAX_RETRY_DELAY_MS,
    random: options.random ?? Math.random,
  };
  const http = {
    endpoint: wire.endpoint(options.baseUrl, options.model),
    headers: wire.headers(options.apiKey ?? null),
    wire,
    fetch: options.fetch ?? fetch,
    timeoutMs: options.timeoutMs,
    firstTokenTimeoutMs: stream ? (options.firstTokenTimeoutMs ?? 0) : 0,
    now: () => clock.now(),
  };

  async function attempt(
    body: string,
    timing: CallTiming,
    signal?: AbortSignal,
  ): Promise<AttemptResult> {
    const release = await timing.queued(limiter.acquire(signal));
    try {
      const result = await attemptCompletion(http, body, signal);
      return result.ok ? judge(result.completion) : result;
    } finally {
      release();
    }
  }

  async function complete(
    request: ModelRequest,
    signal?: AbortSignal,
    hooks: ModelCallHooks = {},
  ): Promise<ModelReply> {
    const profileBody = request.body ?? { messages: request.messages };
    const payload = wire.body(profileBody, {
      model: options.model,
      maxTokens: options.maxTokens,
      temperature: options.temperature,
      stream,
    });
    const body = JSON.stringify(payload);
    const requestBytes = Buffer.byteLength(body);
    const timing = startCallTiming();
    const retries = createCallRetries(options.retries, backoff);
    for (let attemptNo = 1; ; attemptNo++) {
      const result = await attempt(body, timing, signal);
      if (result.ok) return replyOf(result.completion, payload, requestBytes, timing);
      const { reason } = result;
      const delayMs = retries.next(result);
      if (reason === null || delayMs === null) throw result.error;
      if (hooks.budget && hooks.budget.remaining <= 0) {
        throw new ModelError(
          result.error.code,
          `${result.error.message} (no retry: the task's model retries are spent)`,
          result.error,
        );
      }
      if (hooks.budget) hooks.budget.remaining -= 1;
      const message = result.error.message;
      await hooks.onRetry?.({
        attempt: attemptNo,
        reason,
        delayMs,
        status: result.status,
        message,
      });
      if (delayMs > 0) await clock.sleep(delayMs, signal);
    }
  }

  /** An empty reply, or one cut off at max_tokens, is worth one re-ask, then unusable. */
  function judge(completion: Completion): AttemptResult {
    if (completion.empty ?? completion.text.trim() === '')
      return failed('MODEL_EMPTY_REPLY', 'model replied with empty text', 'empty_reply');
    if (completion.finishReason === 'length') {
      const message = `model reply stopped at max_tokens (${options.maxTokens}) before it was complete`;
      return failed('MODEL_EMPTY_REPLY', message, 'truncated_reply');
    }
    return { ok: true, completion };
  }

  const client: VisionModel = {
    name: options.model,
    isReplay: false,
    complete,
    forWire: (other) =>
      other === wire ? client : createOpenAiCompatibleModel({ ...options, wire: other, limiter }),
  };
  // Only the self-hosted servers' wire lists its models the way model-server.ts reads.
  if (wire === chatCompletionsWire) {
    const probe = {
      baseUrl: options.baseUrl,
      model: options.model,
      headers: http.headers,
      fetch: http.fetch,
      timeoutMs: Math.min(options.timeoutMs, 5000),
    };
    client.server = (signal) => identifyModelServer(probe, signal);
  }
  return client;
}
