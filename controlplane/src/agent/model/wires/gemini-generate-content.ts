// The Gemini API `generateContent` wire: POST `{base}/models/{model}:generateContent` (base e.g.
// `https://generativelanguage.googleapis.com/v1beta`), the key in `x-goog-api-key`, the transport
// fields in `generationConfig`. A reply is `candidates[0].content.parts` (text and `functionCall`
// parts), its `finishReason` and `usageMetadata`. Non-streaming. Sources: @google/genai 2.x
// (`GOOGLE_API_KEY_HEADER`, `GOOGLE_AI_API_DEFAULT_VERSION = 'v1beta'`, the `{model}:generateContent`
// path, `GenerateContentResponseUsageMetadata`, `FinishReason`); docs/models/gemini-computer-use.md.
import type { Wire, WireRead } from './wire-types.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The model's parts of a reply body (`candidates[0].content.parts`), `[]` when it has none. */
export function geminiReplyParts(body: unknown): Json[] {
  const candidate = isObject(body) && Array.isArray(body.candidates) ? body.candidates[0] : null;
  const content = isObject(candidate) ? candidate.content : null;
  const parts = isObject(content) ? content.parts : null;
  return Array.isArray(parts) ? parts.filter(isObject) : [];
}

/** `candidates[0].finishReason` as sent (`STOP`, `MAX_TOKENS`, `MALFORMED_FUNCTION_CALL`…), or null. */
export function geminiFinishReason(body: unknown): string | null {
  const candidate = isObject(body) && Array.isArray(body.candidates) ? body.candidates[0] : null;
  const reason = isObject(candidate) ? candidate.finishReason : null;
  return typeof reason === 'string' ? reason : null;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

function readUsage(body: Json): { promptTokens: number; completionTokens: number } | null {
  const usage = body.usageMetadata;
  if (!isObject(usage)) return null;
  // Thinking tokens are billed as output: they count as completion here.
  return {
    promptTokens: count(usage.promptTokenCount),
    completionTokens: count(usage.candidatesTokenCount) + count(usage.thoughtsTokenCount),
  };
}

function normaliseFinish(reason: string | null): string | null {
  if (reason === null) return null;
  if (reason === 'MAX_TOKENS') return 'length';
  return reason.toLowerCase();
}

export const geminiGenerateContentWire: Wire = {
  name: 'gemini-generate-content',
  streams: false,
  endpoint(baseUrl, model) {
    const name = model.startsWith('models/') ? model.slice('models/'.length) : model;
    return `${baseUrl.replace(/\/+$/, '')}/models/${encodeURIComponent(name)}:generateContent`;
  },
  headers(apiKey) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (apiKey !== null && apiKey !== '') headers['x-goog-api-key'] = apiKey;
    return headers;
  },
  body(profileBody, fields) {
    const config = isObject(profileBody.generationConfig) ? profileBody.generationConfig : {};
    return {
      ...profileBody,
      generationConfig: {
        ...config,
        maxOutputTokens: fields.maxTokens,
        temperature: fields.temperature,
      },
    };
  },
  read(json): WireRead {
    if (!isObject(json)) return { ok: false, message: 'the reply is not a JSON object' };
    if (!Array.isArray(json.candidates) || json.candidates.length === 0) {
      const feedback = isObject(json.promptFeedback) ? json.promptFeedback.blockReason : undefined;
      return {
        ok: false,
        message:
          typeof feedback === 'string'
            ? `the prompt was blocked (${feedback})`
            : 'the reply has no candidates',
      };
    }
    const parts = geminiReplyParts(json);
    const text = parts
      .filter((part) => typeof part.text === 'string' && part.thought !== true)
      .map((part) => part.text as string)
      .join('');
    const calls = parts.filter((part) => isObject(part.functionCall)).length;
    return {
      ok: true,
      reply: { text, body: json },
      finishReason: normaliseFinish(geminiFinishReason(json)),
      empty: text.trim() === '' && calls === 0,
      usage: readUsage(json),
    };
  },
};
