// Reads a `stream: true` chat completion (server-sent events, parsed by eventsource-parser):
// content deltas are joined, tool-call deltas are joined per `index` (id and name from the first,
// argument text appended), the first non-empty delta is reported (the first-token timeout), and a
// stream that breaks off or reports an error is a retryable failure.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { type AttemptResult, type Completion, failed, usageOf } from './attempt-result.js';
import { readBoundedChunks } from './bounded-body.js';

interface ToolCallDelta {
  index?: number;
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

interface StreamChunk {
  choices?: {
    delta?: { content?: unknown; tool_calls?: ToolCallDelta[] };
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: unknown } | string;
}

/** Accumulates one stream; `feed` text in, then `result()`. */
function createChatStreamState(onFirstToken: () => void) {
  const completion: Completion = { text: '', toolCalls: [], finishReason: null, usage: null };
  let done = false;
  let failure: AttemptResult | null = null;
  let started = false;
  const first = () => {
    if (!started) onFirstToken();
    started = true;
  };

  const onEvent = (event: EventSourceMessage) => {
    if (failure || done) return;
    if (event.data.trim() === '[DONE]') {
      done = true;
      return;
    }
    let chunk: StreamChunk;
    try {
      chunk = JSON.parse(event.data) as StreamChunk;
    } catch (error) {
      failure = failed('MODEL_BAD_RESPONSE', 'model stream sent an event that is not JSON', null, {
        cause: error,
      });
      return;
    }
    if (chunk.error !== undefined) {
      const message = typeof chunk.error === 'string' ? chunk.error : String(chunk.error.message);
      failure = failed(
        'MODEL_UNAVAILABLE',
        `model stream reported an error: ${message}`,
        'server_error',
      );
      return;
    }
    const choice = chunk.choices?.[0];
    const content = choice?.delta?.content;
    if (typeof content === 'string' && content !== '') {
      first();
      completion.text += content;
    }
    for (const delta of choice?.delta?.tool_calls ?? []) {
      first();
      joinToolCall(completion.toolCalls, delta);
    }
    if (choice?.finish_reason) completion.finishReason = choice.finish_reason;
    completion.usage = usageOf(chunk) ?? completion.usage;
  };
  const parser = createParser({ onEvent });

  return {
    feed: (text: string) => parser.feed(text),
    /** True once nothing more is wanted: `[DONE]` or a failure. */
    get settled() {
      return done || failure !== null;
    },
    result(): AttemptResult {
      if (failure) return failure;
      if (!done && completion.finishReason === null) {
        const message = 'the model stream ended before the reply was complete';
        return failed('MODEL_UNAVAILABLE', message, 'network');
      }
      // A stream whose indexes skipped one leaves a hole: keep the calls that arrived.
      return {
        ok: true,
        completion: { ...completion, toolCalls: completion.toolCalls.filter(Boolean) },
      };
    },
  };
}

/** Adds one streamed tool-call delta to the call at its `index` (a new call when none is there). */
function joinToolCall(calls: Completion['toolCalls'], delta: ToolCallDelta): void {
  const index = typeof delta.index === 'number' ? delta.index : calls.length;
  let call = calls[index];
  if (call === undefined) {
    call = { id: '', name: '', arguments: '' };
    calls[index] = call;
  }
  if (typeof delta.id === 'string' && delta.id !== '') call.id = delta.id;
  const name = delta.function?.name;
  // OpenAI and vLLM send the name once; a server that repeats it whole must not double it.
  if (typeof name === 'string' && name !== call.name) call.name += name;
  const args = delta.function?.arguments;
  if (typeof args === 'string') call.arguments += args;
  else if (args !== undefined && args !== null) call.arguments += JSON.stringify(args);
}

/**
 * Reads an event-stream body to its end (or `[DONE]`), at most `maxBytes`. Rejects only when the
 * body itself fails (an abort, a reset connection).
 */
export async function readChatStream(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  onFirstToken: () => void,
): Promise<AttemptResult> {
  const state = createChatStreamState(onFirstToken);
  if (!body) return state.result();
  const decoder = new TextDecoder();
  const read = await readBoundedChunks(body, maxBytes, (chunk) => {
    state.feed(decoder.decode(chunk, { stream: true }));
    return state.settled;
  });
  if (read === 'too-large') {
    const message = `model server sent a stream larger than ${maxBytes} bytes`;
    return failed('MODEL_BAD_RESPONSE', message, null);
  }
  state.feed(decoder.decode());
  return state.result();
}

/** An event stream already read as text (a server that labelled it as something else). */
export function parseChatStreamText(text: string): AttemptResult {
  const state = createChatStreamState(() => undefined);
  state.feed(`${text}\n\n`);
  return state.result();
}
