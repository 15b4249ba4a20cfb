// Reads a 200 reply to a chat-completions request: an event stream when the server streams, a
// JSON completion when it ignored `stream: true` (or was not asked), both bounded in size.
import { type AttemptResult, type CompletionToolCall, failed, usageOf } from './attempt-result.js';
import { MAX_MODEL_REPLY_BYTES, readBoundedText } from './bounded-body.js';
import { parseChatStreamText, readChatStream } from './chat-stream.js';

interface CompletionBody {
  choices?: {
    message?: { content?: unknown; tool_calls?: unknown };
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

export interface ReadHooks {
  /** The reply is an event stream: the first-token timeout starts to count. */
  onStream(): void;
  /** Its first non-empty content delta arrived. */
  onFirstToken(): void;
}

/** The completion in `response`, or why there is none. Rejects only when the body read fails. */
export async function readCompletion(response: Response, hooks: ReadHooks): Promise<AttemptResult> {
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('text/event-stream')) {
    hooks.onStream();
    return readChatStream(response.body, MAX_MODEL_REPLY_BYTES, hooks.onFirstToken);
  }
  const text = await readBoundedText(response, MAX_MODEL_REPLY_BYTES);
  if (text === null) {
    const message = `model server sent a reply larger than ${MAX_MODEL_REPLY_BYTES} bytes`;
    return failed('MODEL_BAD_RESPONSE', message, null);
  }
  if (text.trimStart().startsWith('data:')) return parseChatStreamText(text);
  return parseCompletionJson(text);
}

function parseCompletionJson(text: string): AttemptResult {
  let body: CompletionBody;
  try {
    body = JSON.parse(text) as CompletionBody;
  } catch (error) {
    return failed('MODEL_BAD_RESPONSE', 'model server sent a body that is not JSON', null, {
      cause: error,
    });
  }
  const choice = body.choices?.[0];
  const toolCalls = toolCallsOf(choice?.message?.tool_calls);
  // `null` content (a refusal, an empty generation, a pure tool-call reply) is empty text.
  const raw = choice?.message?.content;
  const content = raw === null || (raw === undefined && toolCalls.length > 0) ? '' : raw;
  if (typeof content !== 'string') {
    return failed('MODEL_BAD_RESPONSE', 'model reply has no choices[0].message.content', null);
  }
  return {
    ok: true,
    completion: {
      text: content,
      toolCalls,
      finishReason: choice?.finish_reason ?? null,
      usage: usageOf(body),
    },
  };
}

/** `message.tool_calls` as OpenAI writes them; arguments sent as an object (Ollama) are re-serialised. */
function toolCallsOf(value: unknown): CompletionToolCall[] {
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
