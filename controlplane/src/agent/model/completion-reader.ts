// Reads a 200 reply to a chat-completions request: an event stream when the server streams, a
// JSON completion when it ignored `stream: true` (or was not asked), both bounded in size.
import { type AttemptResult, type CompletionToolCall, failed } from './attempt-result.js';
import { MAX_MODEL_REPLY_BYTES, readBoundedText } from './bounded-body.js';
import { parseChatStreamText, readChatStream } from './chat-stream.js';
import type { Wire } from './wires/wire-types.js';

export interface ReadHooks {
  /** The reply is an event stream: the first-token timeout starts to count. */
  onStream(): void;
  /** Its first non-empty content delta arrived. */
  onFirstToken(): void;
}

/** The completion in `response`, or why there is none. Rejects only when the body read fails. */
export async function readCompletion(
  response: Response,
  hooks: ReadHooks,
  wire: Wire,
): Promise<AttemptResult> {
  const type = response.headers.get('content-type') ?? '';
  if (wire.streams && type.includes('text/event-stream')) {
    hooks.onStream();
    return withBody(await readChatStream(response.body, MAX_MODEL_REPLY_BYTES, hooks.onFirstToken));
  }
  const text = await readBoundedText(response, MAX_MODEL_REPLY_BYTES);
  if (text === null) {
    const message = `model server sent a reply larger than ${MAX_MODEL_REPLY_BYTES} bytes`;
    return failed('MODEL_BAD_RESPONSE', message, null);
  }
  if (wire.streams && text.trimStart().startsWith('data:'))
    return withBody(parseChatStreamText(text));
  return parseReplyJson(text, wire);
}

function parseReplyJson(text: string, wire: Wire): AttemptResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return failed('MODEL_BAD_RESPONSE', 'model server sent a body that is not JSON', null, {
      cause: error,
    });
  }
  const read = wire.read(json);
  if (!read.ok) return failed('MODEL_BAD_RESPONSE', read.message, null);
  const { reply, finishReason, usage, empty } = read;
  return {
    ok: true,
    completion: {
      text: reply.text,
      toolCalls: wire.name === 'chat-completions' ? toolCallsOf(json) : [],
      finishReason,
      usage,
      body: reply.body,
      empty,
    },
  };
}

/** A streamed chat reply, given the body a JSON completion of the same reply would have. */
function withBody(result: AttemptResult): AttemptResult {
  if (!result.ok || result.completion.body !== undefined) return result;
  const { text, toolCalls, finishReason, usage } = result.completion;
  const message = {
    role: 'assistant',
    content: text,
    ...(toolCalls.length > 0
      ? {
          tool_calls: toolCalls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.arguments },
          })),
        }
      : {}),
  };
  const body = {
    choices: [{ message, finish_reason: finishReason }],
    ...(usage
      ? { usage: { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens } }
      : {}),
  };
  const empty = text.trim() === '' && toolCalls.length === 0;
  return { ok: true, completion: { ...result.completion, body, empty } };
}

/** `message.tool_calls` as OpenAI writes them; arguments sent as an object (Ollama) are re-serialised. */
function toolCallsOf(json: unknown): CompletionToolCall[] {
  const value = (json as { choices?: { message?: { tool_calls?: unknown } }[] } | null)
    ?.choices?.[0]?.message?.tool_calls;
  if (!Array.isArray(value)) return [];
  return value.flatMap(
    (call: { id?: unknown; function?: { name?: unknown; arguments?: unknown } }) => {
      const name = call?.function?.name;
      if (typeof name !== 'string') return [];
      const args = call.function?.arguments;
      const text = typeof args === 'string' ? args : JSON.stringify(args ?? {});
      return [{ id: typeof call.id === 'string' ? call.id : '', name, arguments: text }];
    },
  );
}
