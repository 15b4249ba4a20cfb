// The OpenAI chat-completions wire (vLLM, Ollama, llama.cpp, OpenRouter, LiteLLM): the only one
// that streams (chat-stream.ts). UI-TARS and the Qwen profiles speak it.
import { usageOf } from '../attempt-result.js';
import type { Wire, WireRead } from './wire-types.js';

interface CompletionBody {
  choices?: {
    message?: { content?: unknown; tool_calls?: unknown };
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}

/** JSON, with the key as a bearer token (chat completions, the OpenAI Responses API). */
export function bearerJsonHeaders(apiKey: string | null): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  return headers;
}

export const chatCompletionsWire: Wire = {
  name: 'chat-completions',
  streams: true,
  endpoint: (baseUrl) => `${baseUrl.replace(/\/+$/, '')}/chat/completions`,
  headers: bearerJsonHeaders,
  body: (profileBody, fields) => ({
    model: fields.model,
    ...profileBody,
    max_tokens: fields.maxTokens,
    temperature: fields.temperature,
    stream: fields.stream,
    // Streamed replies carry `usage` only when asked (OpenAI, vLLM, Ollama); others ignore it.
    ...(fields.stream ? { stream_options: { include_usage: true } } : {}),
  }),
  read(json): WireRead {
    const body = (json ?? {}) as CompletionBody;
    const choice = body.choices?.[0];
    const message = choice?.message;
    const calls = Array.isArray(message?.tool_calls) ? message.tool_calls.length : 0;
    // `null` content (a refusal, an empty generation) is empty text; so is none beside tool calls.
    const raw = message?.content;
    const content = raw === null || (raw === undefined && calls > 0) ? '' : raw;
    if (typeof content !== 'string') {
      return { ok: false, message: 'model reply has no choices[0].message.content' };
    }
    return {
      ok: true,
      reply: { text: content, body: json },
      finishReason: choice?.finish_reason ?? null,
      empty: content.trim() === '' && calls === 0,
      usage: usageOf(body),
    };
  },
};
