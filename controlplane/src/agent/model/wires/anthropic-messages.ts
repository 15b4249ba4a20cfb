// The Anthropic Messages API (POST {base}/messages, not streamed): `x-api-key` auth, the
// `anthropic-version` header and the computer-use beta header. docs/models.md,
// "anthropic-computer-use" — sources there (@anthropic-ai/sdk `Message`, `Usage`, `StopReason`;
// @ai-sdk/anthropic `anthropic-prepare-tools.ts` for the beta names).
import type { WireReply } from '../../profiles/profile-types.js';
import type { TransportFields, Wire, WireRead } from './wire-types.js';

/** The API version every request names (the stable version of the Messages API). */
export const ANTHROPIC_VERSION = '2023-06-01';
/** The beta that enables the `computer_20251124` tool (`computer-use-2025-01-24` for `_20250124`). */
export const COMPUTER_USE_BETA = 'computer-use-2025-11-24';

export interface AnthropicMessagesWireOptions {
  /** `anthropic-beta` values, joined by commas (default: the computer-use beta). */
  betas?: readonly string[];
}

/** Stop reasons that mean the reply was cut off (the client asks once more). */
const TRUNCATED = new Set(['max_tokens', 'model_context_window_exceeded']);

export function createAnthropicMessagesWire(options: AnthropicMessagesWireOptions = {}): Wire {
  const betas = options.betas ?? [COMPUTER_USE_BETA];
  return {
    name: 'anthropic-messages',
    streams: false,
    endpoint: (baseUrl) => `${baseUrl.replace(/\/+$/, '')}/messages`,
    headers(apiKey) {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'anthropic-version': ANTHROPIC_VERSION,
      };
      if (betas.length > 0) headers['anthropic-beta'] = betas.join(',');
      if (apiKey !== null) headers['x-api-key'] = apiKey;
      return headers;
    },
    body: (profileBody, fields: TransportFields) => ({
      model: fields.model,
      max_tokens: fields.maxTokens,
      temperature: fields.temperature,
      ...profileBody,
    }),
    read: readMessage,
  };
}

/** The wire with the computer-use beta of `computer_20251124`. */
export const anthropicMessagesWire: Wire = createAnthropicMessagesWire();

function readMessage(json: unknown): WireRead {
  if (!isRecord(json)) return { ok: false, message: 'the reply is not a JSON object' };
  if (json.type === 'error') {
    const error = isRecord(json.error) ? json.error : {};
    return { ok: false, message: `the server reported an error: ${String(error.message ?? '')}` };
  }
  const content = json.content;
  if (!Array.isArray(content)) return { ok: false, message: 'the reply has no content blocks' };
  const texts: string[] = [];
  let calls = 0;
  for (const block of content) {
    if (!isRecord(block)) return { ok: false, message: 'a content block is not an object' };
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    if (block.type === 'tool_use') calls += 1;
  }
  const text = texts.join('\n');
  const stop = typeof json.stop_reason === 'string' ? json.stop_reason : null;
  const reply: WireReply = { text, body: json };
  return {
    ok: true,
    reply,
    finishReason: stop !== null && TRUNCATED.has(stop) ? 'length' : stop,
    empty: calls === 0 && text.trim() === '',
    usage: readUsage(json.usage),
  };
}

/**
 * `input_tokens` counts only the uncached part of the prompt; the cache writes and reads are the
 * rest of it (`Usage` of @anthropic-ai/sdk), so the prompt is their sum.
 */
function readUsage(usage: unknown): { promptTokens: number; completionTokens: number } | null {
  if (!isRecord(usage)) return null;
  const input = count(usage.input_tokens);
  const output = count(usage.output_tokens);
  if (input === null || output === null) return null;
  const cached =
    (count(usage.cache_creation_input_tokens) ?? 0) + (count(usage.cache_read_input_tokens) ?? 0);
  return { promptTokens: input + cached, completionTokens: output };
}

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
