// How the fake OpenAI-compatible server (uitars-test-model-server.ts) writes its answers: JSON
// bodies, OpenAI-shaped errors, and `stream: true` replies as server-sent events chunked the way
// vLLM streams them (a role chunk, content deltas, tool-call deltas — id and name first, then the
// arguments in pieces — a finish chunk with usage unless it is null, `[DONE]`).
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** The fields every completion (and every stream chunk) of one answer shares. */
export interface CompletionHead {
  id: string;
  created: number;
  model: string;
}

/** Characters per streamed content delta (real servers send a token or a few per chunk). */
const DELTA_CHARS = 12;

/** One tool call of an answer, as `message.tool_calls` carries it. */
export interface ToolCallOut {
  id: string;
  name: string;
  /** JSON text. */
  arguments: string;
}

/** `message.tool_calls` of a JSON completion. */
export const toolCallsJson = (calls: readonly ToolCallOut[]) =>
  calls.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));

export function completionHead(model: string): CompletionHead {
  return { id: `chatcmpl-${randomUUID()}`, created: Math.floor(Date.now() / 1000), model };
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

export function sendError(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const type = status >= 500 ? 'server_error' : 'invalid_request_error';
  response.writeHead(status, { ...headers, 'content-type': 'application/json' });
  response.end(JSON.stringify({ error: { message, type, param: null, code: null } }));
}

const chunk = (
  head: CompletionHead,
  delta: object,
  finishReason: string | null,
  extra: object = {},
): string =>
  `data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`;

/** The event-stream head and the role chunk (no content yet), as vLLM sends them at once. */
export function startStream(response: ServerResponse, head: CompletionHead): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.write(chunk(head, { role: 'assistant', content: '' }, null));
}

export function sendStream(
  response: ServerResponse,
  head: CompletionHead,
  content: string,
  finishReason: string,
  usage: Usage | null,
  toolCalls: readonly ToolCallOut[] = [],
): void {
  startStream(response, head);
  for (let at = 0; at < content.length; at += DELTA_CHARS)
    response.write(chunk(head, { content: content.slice(at, at + DELTA_CHARS) }, null));
  toolCalls.forEach((call, index) => {
    const first = {
      index,
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: '' },
    };
    response.write(chunk(head, { tool_calls: [first] }, null));
    for (let at = 0; at < call.arguments.length; at += DELTA_CHARS) {
      const piece = call.arguments.slice(at, at + DELTA_CHARS);
      response.write(
        chunk(head, { tool_calls: [{ index, function: { arguments: piece } }] }, null),
      );
    }
  });
  response.write(chunk(head, {}, finishReason, usage ? { usage } : {}));
  response.end('data: [DONE]\n\n');
}
