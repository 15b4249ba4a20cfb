// The OpenAI Responses API wire: POST `{base}/responses` with `Authorization: Bearer`, one JSON
// `Response` back (not streamed). `status: 'incomplete'` with `incomplete_details.reason:
// 'max_output_tokens'` is a token-limit stop; usage is `input_tokens` / `output_tokens` (openai SDK
// types `Response`, `ResponseUsage`, `ResponseCreateParamsNonStreaming`).

import { bearerJsonHeaders } from './chat-completions.js';
import type { Wire, WireRead } from './wire-types.js';

type Json = Record<string, unknown>;

export const openAiResponsesWire: Wire = {
  name: 'openai-responses',
  streams: false,
  endpoint: (baseUrl) => `${baseUrl.replace(/\/+$/, '')}/responses`,
  headers: bearerJsonHeaders,
  // Transport fields first, so a task's bodies share a byte prefix up to the history. No
  // `temperature`: the computer-use models are reasoning models, which reject it.
  body: (profileBody, fields) => ({
    model: fields.model,
    max_output_tokens: fields.maxTokens,
    ...profileBody,
  }),
  read: readResponse,
};

function readResponse(json: unknown): WireRead {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { ok: false, message: 'the Responses API reply is not a JSON object' };
  }
  const body = json as Json;
  const error = body.error as { message?: unknown; code?: unknown } | null | undefined;
  if (body.status === 'failed' || (error && typeof error === 'object')) {
    const message = typeof error?.message === 'string' ? error.message : 'no error message';
    return { ok: false, message: `the response failed: ${message}` };
  }
  if (!Array.isArray(body.output)) {
    return { ok: false, message: 'the Responses API reply has no `output` array' };
  }
  const items = body.output.filter(
    (item): item is Json => typeof item === 'object' && item !== null,
  );
  const text = items.flatMap(outputText).join('');
  const acts = items.some((item) => item.type === 'computer_call' || item.type === 'function_call');
  const refusal = items.some((item) => contentTypes(item).includes('refusal'));
  return {
    ok: true,
    reply: { text, body: json },
    finishReason: finishReason(body),
    empty: text.trim() === '' && !acts && !refusal,
    usage: usageOf(body.usage),
  };
}

function finishReason(body: Json): string | null {
  if (body.status === 'incomplete') {
    const reason = (body.incomplete_details as { reason?: unknown } | null)?.reason;
    return reason === 'max_output_tokens'
      ? 'length'
      : typeof reason === 'string'
        ? reason
        : 'incomplete';
  }
  return body.status === 'completed'
    ? 'stop'
    : typeof body.status === 'string'
      ? body.status
      : null;
}

function usageOf(usage: unknown): { promptTokens: number; completionTokens: number } | null {
  const { input_tokens: input, output_tokens: output } = (usage ?? {}) as Json;
  if (typeof input !== 'number' || typeof output !== 'number') return null;
  return { promptTokens: input, completionTokens: output };
}

function outputText(item: Json): string[] {
  if (item.type !== 'message' || !Array.isArray(item.content)) return [];
  return item.content.flatMap((part: Json) =>
    part?.type === 'output_text' && typeof part.text === 'string' ? [part.text] : [],
  );
}

function contentTypes(item: Json): unknown[] {
  return item.type === 'message' && Array.isArray(item.content)
    ? item.content.map((part: Json) => part?.type)
    : [];
}
