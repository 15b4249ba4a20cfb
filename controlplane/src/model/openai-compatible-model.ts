// Adapter: any OpenAI-compatible chat-completions endpoint (vLLM, Ollama, llama.cpp, OpenRouter).
import { type Clock, systemClock } from '../clock.js';
import { isAbortError, ModelError } from '../errors.js';
import { MAX_MODEL_REPLY_BYTES, readBoundedText } from './bounded-body.js';
import type { ModelReply, ModelRequest, VisionModel } from './chat-types.js';

export interface OpenAiCompatibleModelOptions {
  /** Base URL up to and including `/v1`, e.g. `http://127.0.0.1:8000/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string | null;
  timeoutMs: number;
  /** Extra attempts on 429, 5xx and network errors. */
  retries: number;
  maxTokens: number;
  temperature: number;
  fetch?: typeof fetch;
  clock?: Clock;
  /** First back-off in ms; doubles per attempt (default 500). */
  backoffMs?: number;
}

interface CompletionBody {
  choices?: { message?: { content?: unknown } }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

const retryable = (status: number) => status === 429 || status >= 500;

/** Creates the HTTP model client. Never sends more than `maxTokens` (servers reject 65535). */
export function createOpenAiCompatibleModel(options: OpenAiCompatibleModelOptions): VisionModel {
  const doFetch = options.fetch ?? fetch;
  const clock = options.clock ?? systemClock;
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

  async function attempt(body: string, signal?: AbortSignal): Promise<Response> {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      return await doFetch(endpoint, { method: 'POST', headers, body, signal: combined });
    } catch (error) {
      if (signal?.aborted) throw error;
      if (timeout.aborted) {
        throw new ModelError(
          'MODEL_TIMEOUT',
          `model did not answer within ${options.timeoutMs} ms`,
        );
      }
      throw new ModelError(
        'MODEL_UNAVAILABLE',
        `cannot reach the model at ${endpoint}: ${(error as Error).message}`,
        error,
      );
    }
  }

  async function complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelReply> {
    const body = JSON.stringify({
      model: options.model,
      messages: request.messages,
      max_tokens: options.maxTokens,
      temperature: options.temperature,
      stream: false,
    });
    const requestBytes = Buffer.byteLength(body);
    let lastError: ModelError | null = null;
    for (let attemptNo = 0; attemptNo <= options.retries; attemptNo++) {
      if (attemptNo > 0) await clock.sleep(backoff(attemptNo, lastError), signal);
      let response: Response;
      try {
        response = await attempt(body, signal);
      } catch (error) {
        if (isAbortError(error) || !(error instanceof ModelError)) throw error;
        if (error.code === 'MODEL_TIMEOUT' && attemptNo === options.retries) throw error;
        lastError = error;
        continue;
      }
      if (response.ok) return readReply(response, requestBytes);
      const detail = ((await readBoundedText(response, 64 * 1024).catch(() => '')) ?? '').slice(
        0,
        300,
      );
      lastError = new ModelError(
        retryable(response.status) ? 'MODEL_UNAVAILABLE' : 'MODEL_REJECTED',
        `model server answered HTTP ${response.status}${detail ? `: ${detail}` : ''}`,
      );
      retryAfter.set(lastError, Number(response.headers.get('retry-after')) * 1000 || 0);
      if (!retryable(response.status)) throw lastError;
    }
    throw lastError ?? new ModelError('MODEL_UNAVAILABLE', 'model request failed');
  }

  const retryAfter = new WeakMap<ModelError, number>();
  function backoff(attemptNo: number, error: ModelError | null): number {
    const base = (options.backoffMs ?? 500) * 2 ** (attemptNo - 1);
    const hinted = error ? (retryAfter.get(error) ?? 0) : 0;
    return Math.min(Math.max(base, hinted), 30_000);
  }

  return { name: options.model, isReplay: false, complete };
}

async function readReply(response: Response, requestBytes: number): Promise<ModelReply> {
  let body: CompletionBody;
  try {
    const text = await readBoundedText(response, MAX_MODEL_REPLY_BYTES);
    if (text === null) {
      throw new ModelError(
        'MODEL_BAD_RESPONSE',
        `model server sent a reply larger than ${MAX_MODEL_REPLY_BYTES} bytes`,
      );
    }
    body = JSON.parse(text) as CompletionBody;
  } catch (error) {
    if (error instanceof ModelError) throw error;
    throw new ModelError('MODEL_BAD_RESPONSE', 'model server sent a body that is not JSON', error);
  }
  const content = body.choices?.[0]?.message?.content;
  if (typeof content !== 'string') {
    throw new ModelError('MODEL_BAD_RESPONSE', 'model reply has no choices[0].message.content');
  }
  if (content.trim() === '')
    throw new ModelError('MODEL_EMPTY_REPLY', 'model replied with empty text');
  const usage = body.usage
    ? {
        promptTokens: body.usage.prompt_tokens ?? 0,
        completionTokens: body.usage.completion_tokens ?? 0,
      }
    : null;
  return { text: content, requestBytes, usage };
}
