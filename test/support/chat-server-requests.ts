// Reading a request in the fake chat servers (uitars-test-model-server.ts): its body, the chat
// request in it, and a signal for the client going away.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ChatRequest, chatRequestSchema } from './uitars-test-model-messages.js';

/** The chat request in `raw`, or why it is not one. */
export function parseRequest(raw: Buffer): ChatRequest | string {
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    return 'request body is not JSON';
  }
  const result = chatRequestSchema.safeParse(json);
  return result.success ? result.data : `invalid chat request: ${result.error.message}`;
}

export async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function disconnectSignal(response: ServerResponse): AbortSignal {
  const controller = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  return controller.signal;
}
