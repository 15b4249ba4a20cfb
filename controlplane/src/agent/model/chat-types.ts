import type { ModelServer } from './model-server.js';
import type { Wire } from './wires/wire-types.js';

/** The subset of the OpenAI chat-completions message format Clawdie sends. */
export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | ContentPart[];
}

/**
 * One model call. `body`, when set, is what a model profile built for its wire (agent/profiles/)
 * and is what is sent; `messages` is then its chat messages where it has them (chat profiles),
 * else empty. Without `body` (the judge) the messages are sent as a chat completion.
 */
export interface ModelRequest {
  messages: ChatMessage[];
  body?: Record<string, unknown>;
}

export interface ModelReply {
  text: string;
  /** The reply body as JSON (what a profile reads tool calls from); absent for a replayed reply. */
  body?: unknown;
  /** Size of the JSON body sent to the model server, in bytes. */
  requestBytes: number;
  /**
   * Tokens of the call: the server's `usage`, or estimated (`estimated: true`, docs/models.md
   * "Usage and cost"); null only from clients that neither read nor estimate them (test fakes).
   */
  usage: { promptTokens: number; completionTokens: number; estimated: boolean } | null;
  /** Where the call's time went (the HTTP client sets it; see call-usage.ts). */
  timing?: ModelTiming;
  /** The images the request carried (count, decoded bytes). */
  images?: { count: number; bytes: number };
}

/** The latency split of one model call, in ms. */
export interface ModelTiming {
  /** Waiting for the endpoint's concurrency slot (every attempt's wait summed). */
  queueMs: number;
  /** Request sent → first content delta of the answering attempt; null when not streamed. */
  firstTokenMs: number | null;
  /** The whole call: queue, every attempt and every retry's wait. */
  totalMs: number;
}

/** Why a model call was tried again (docs/models.md, "Client behaviour"). */
export type ModelRetryReason =
  /** HTTP 429 (its Retry-After honoured). */
  | 'rate_limited'
  /** HTTP 5xx (a 503's Retry-After honoured). */
  | 'server_error'
  /** The connection failed or broke off mid-reply. */
  | 'network'
  /** No complete answer within CLAWDIE_MODEL_TIMEOUT_MS. */
  | 'timeout'
  /** A streamed reply sent no token within CLAWDIE_MODEL_FIRST_TOKEN_TIMEOUT_MS. */
  | 'first_token_timeout'
  /** The reply had no text: asked once more. */
  | 'empty_reply'
  /** The reply stopped at max_tokens (finish_reason `length`): asked once more. */
  | 'truncated_reply';

/** One retry of a model call, as the trace records it. */
export interface ModelRetry {
  /** 1 for the first retry of this call, 2 for the second, … */
  attempt: number;
  reason: ModelRetryReason;
  /** How long the client waits before the retry. */
  delayMs: number;
  /** The HTTP status that caused it, if any. */
  status: number | null;
  message: string;
}

/** Per-task hooks of a model call: the task's retry budget and where its retries are reported. */
export interface ModelCallHooks {
  /** Retries the task may still spend; the client takes one per retry and stops at 0. */
  budget?: { remaining: number };
  /** Told before each retry's wait; awaited. Must not throw. */
  onRetry?: (retry: ModelRetry) => void | Promise<void>;
}

/**
 * A vision-language model that continues a chat. Implementations: the OpenAI-compatible HTTP
 * client and the replay model. Rejects with ModelError (typed code) or an AbortError.
 */
export interface VisionModel {
  readonly name: string;
  /** True for recorded/replayed output, so results can be labelled as such. */
  readonly isReplay: boolean;
  complete(
    request: ModelRequest,
    signal?: AbortSignal,
    hooks?: ModelCallHooks,
  ): Promise<ModelReply>;
  /**
   * The same endpoint, model name, key and concurrency limit spoken in another wire (a task's own
   * model profile, e.g. through a proxy that serves several APIs); absent for a replay.
   */
  forWire?(wire: Wire): VisionModel;
  /**
   * Which server answers (model-server.ts): asked once per task where a profile's image format
   * depends on it; absent where it cannot be asked (a replay, the hosted wires). Rejects only on
   * an abort.
   */
  server?(signal?: AbortSignal): Promise<ModelServer>;
}
