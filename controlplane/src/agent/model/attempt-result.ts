// What one HTTP attempt at a chat completion ends with: the reply, or a failure saying whether
// (and why) it is worth another try. Values, not exceptions: the retry loop decides.
import { ModelError, type ModelErrorCode } from '../../errors.js';
import type { ModelRetryReason } from './chat-types.js';

/** One tool call of a reply (`message.tool_calls`, or its streamed deltas joined). */
export interface CompletionToolCall {
  id: string;
  name: string;
  /** The arguments as the server sent them: a JSON text, not parsed here. */
  arguments: string;
}

/** A model reply as read from a JSON body or an event stream. */
export interface Completion {
  text: string;
  /**
   * A streamed reply's tool calls, joined from their deltas (`[]` when none); a JSON reply keeps
   * them in `body` (`choices[0].message.tool_calls`), where the profiles read them.
   */
  toolCalls: CompletionToolCall[];
  /** `stop`, `length`, … or null when the server sent none. */
  finishReason: string | null;
  usage: { promptTokens: number; completionTokens: number } | null;
  /** The reply body as JSON (a streamed chat reply reassembled into a completion's shape). */
  body?: unknown;
  /** Neither text nor a call (default: the text is blank). */
  empty?: boolean;
  /** Request sent → first content delta, for a streamed reply (model-attempt.ts sets it). */
  firstTokenMs?: number | null;
}

export interface AttemptFailure {
  ok: false;
  error: ModelError;
  /** Why a retry may help, or null when it cannot (a 4xx, a body that is not a completion). */
  reason: ModelRetryReason | null;
  status: number | null;
  /** The server's Retry-After, in ms from now (429 and 503 only). */
  retryAfterMs: number | null;
}

export type AttemptResult = { ok: true; completion: Completion } | AttemptFailure;

export function failed(
  code: ModelErrorCode,
  message: string,
  reason: ModelRetryReason | null,
  extra: { status?: number; retryAfterMs?: number | null; cause?: unknown } = {},
): AttemptFailure {
  return {
    ok: false,
    error: new ModelError(code, message, extra.cause),
    reason,
    status: extra.status ?? null,
    retryAfterMs: extra.retryAfterMs ?? null,
  };
}

/** The usage block of a completion or a stream chunk, when it has one. */
export function usageOf(body: {
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}): Completion['usage'] {
  return body.usage
    ? {
        promptTokens: body.usage.prompt_tokens ?? 0,
        completionTokens: body.usage.completion_tokens ?? 0,
      }
    : null;
}
