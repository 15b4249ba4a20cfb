import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { disconnectSignal, parseRequest, readBody } from './chat-server-requests.js';
import {
  type CompletionHead,
  completionHead,
  sendError,
  sendJson,
  sendStream,
  startStream,
  type ToolCallOut,
  toolCallsJson,
  type Usage,
} from './chat-server-writers.js';
import {
  type FakeServerKind,
  modelListOf,
  rootAnswer,
  undecodableImage,
} from './model-server-lists.js';
import type { ChatRequest, ReceivedMessage } from './uitars-test-model-messages.js';
import { imageUrls, messageText } from './uitars-test-model-messages.js';
import { imageSizeFromDataUrl } from './uitars-test-model-observe.js';

/** One request the fake model server received, filled in as it is answered. */
export interface ModelRequestRecord {
  index: number;
  method: string;
  path: string;
  /** Size of the raw request body in bytes. */
  bodyBytes: number;
  /** The parsed body, or null when it was not a valid chat-completions request. */
  body: ChatRequest | null;
  messages: ReceivedMessage[];
  imageCount: number;
  authorization: string | null;
  /** Failure mode or script position that produced the answer. */
  mode: string;
  /** HTTP status sent, or null while pending (or when the connection was dropped). */
  status: number | null;
  /** Assistant text sent, if any. */
  reply: string | null;
  error: string | null;
}

/**
 * How one request is answered. A `reply` streams (SSE) when the request asked for `stream: true`,
 * unless `json` (a server that ignores `stream`); `finishReason` defaults to `stop` (`tool_calls`
 * when the reply has `toolCalls`, sent as `message.tool_calls` or streamed deltas). `drop` resets
 * the connection at once; `stall-stream` sends the event-stream head and the role chunk, then no
 * token until the client leaves.
 */
export type ModelOutcome =
  | {
      kind: 'reply';
      content: string;
      finishReason?: string;
      json?: boolean;
      toolCalls?: readonly ToolCallOut[];
      /** The `usage` sent: default an estimate of the request; null sends none (as some servers). */
      usage?: Usage | null;
    }
  | { kind: 'error'; status: number; message: string; headers?: Record<string, string> }
  | { kind: 'raw'; status: number; contentType: string; body: string }
  | { kind: 'hang' }
  | { kind: 'drop' }
  | { kind: 'stall-stream' };

/** The pluggable core of the fake OpenAI-compatible servers. */
export interface ChatServerOptions {
  modelName: string;
  /** Required `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
  /**
   * The server posed as (model-server-lists.ts): its `GET /v1/models` body and key rule, and its
   * image decoder (llama.cpp answers a WebP with HTTP 400). Unset: a bare model list.
   */
  poseAs?: FakeServerKind;
  /** With `poseAs: 'ollama'`: what its `GET /api/version` says (default 0.33.0). */
  serverVersion?: string;
  /** Delay before each answer, read per request. */
  delayMs(): number;
  /** Decides the answer; may throw (→ HTTP 500 with the message). Aborted on close. */
  respond(
    record: ModelRequestRecord,
    request: ChatRequest,
    signal: AbortSignal,
  ): Promise<ModelOutcome>;
}

/** A listening fake model server. */
export interface ChatServer {
  /** Origin, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** OpenAI base URL (`<url>/v1`). */
  readonly baseUrl: string;
  /** Every request, oldest first. */
  readonly requests: readonly ModelRequestRecord[];
  /** Chat requests being answered now, and the most there ever were at once. */
  readonly inFlight: { readonly now: number; readonly peak: number };
  /** `GET /v1/models` requests answered (never in `requests`). */
  readonly modelsAsked: number;
  /** Stops listening, releases hanging requests and drops connections; idempotent. */
  close(): Promise<void>;
}

const chatPaths = new Set(['/v1/chat/completions', '/chat/completions']);

/** Starts the fake chat-completions server on 127.0.0.1, port 0. */
export async function startChatServer(options: ChatServerOptions): Promise<ChatServer> {
  const requests: ModelRequestRecord[] = [];
  let modelsAsked = 0;
  const inFlight = { now: 0, peak: 0 };
  const closing = new AbortController();
  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, 500, String(error));
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const root = options.poseAs ? rootAnswer(options.poseAs, path, options.serverVersion) : null;
    if (request.method === 'GET' && root) {
      response.writeHead(200, { 'content-type': root.contentType }).end(root.body);
      return;
    }
    if (request.method === 'GET' && (path === '/v1/models' || path === '/models')) {
      modelsAsked += 1;
      if (!options.poseAs) {
        sendJson(response, 200, {
          object: 'list',
          data: [{ id: options.modelName, object: 'model' }],
        });
        return;
      }
      const list = modelListOf(options.poseAs, options.modelName);
      const keyed =
        options.apiKey === undefined ||
        request.headers.authorization === `Bearer ${options.apiKey}`;
      if (list.needsKey && !keyed) return sendError(response, 401, 'Unauthorized');
      return sendJson(response, 200, list.body);
    }
    const raw = await readBody(request);
    const record: ModelRequestRecord = {
      index: requests.length,
      method: request.method ?? '',
      path,
      bodyBytes: raw.length,
      body: null,
      messages: [],
      imageCount: 0,
      authorization: request.headers.authorization ?? null,
      mode: 'none',
      status: null,
      reply: null,
      error: null,
    };
    requests.push(record);
    if (request.method !== 'POST' || !chatPaths.has(path)) {
      return finish(record, response, { kind: 'error', status: 404, message: `no route ${path}` });
    }
    if (options.apiKey !== undefined && record.authorization !== `Bearer ${options.apiKey}`) {
      return finish(record, response, { kind: 'error', status: 401, message: 'Incorrect API key' });
    }
    const parsed = parseRequest(raw);
    if (typeof parsed === 'string') {
      return finish(record, response, { kind: 'error', status: 400, message: parsed });
    }
    record.body = parsed;
    record.messages = parsed.messages;
    record.imageCount = imageUrls(parsed.messages).length;
    const undecodable = undecodableImage(options.poseAs, imageUrls(parsed.messages));
    if (undecodable)
      return finish(record, response, { kind: 'error', status: 400, message: undecodable });

    inFlight.now += 1;
    inFlight.peak = Math.max(inFlight.peak, inFlight.now);
    try {
      await answer(record, parsed, response);
    } finally {
      inFlight.now -= 1;
    }
  }

  async function answer(
    record: ModelRequestRecord,
    parsed: ChatRequest,
    response: ServerResponse,
  ): Promise<void> {
    const aborted = AbortSignal.any([closing.signal, disconnectSignal(response)]);
    const delay = options.delayMs();
    if (delay > 0) await sleep(delay, undefined, { signal: aborted }).catch(() => undefined);
    if (aborted.aborted) return void response.destroy();
    let outcome: ModelOutcome;
    try {
      outcome = await options.respond(record, parsed, aborted);
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
      outcome = { kind: 'error', status: 500, message: `test model failed: ${record.error}` };
    }
    if (outcome.kind === 'drop') return void response.destroy();
    if (outcome.kind === 'hang' || outcome.kind === 'stall-stream') {
      if (outcome.kind === 'stall-stream') startStream(response, headOf(record, options));
      await new Promise((resolve) => aborted.addEventListener('abort', resolve, { once: true }));
      return void response.destroy();
    }
    await finish(record, response, outcome);
  }

  async function finish(
    record: ModelRequestRecord,
    response: ServerResponse,
    outcome: Extract<ModelOutcome, { kind: 'reply' | 'error' | 'raw' }>,
  ): Promise<void> {
    record.status = outcome.kind === 'reply' ? 200 : outcome.status;
    if (outcome.kind === 'error')
      return sendError(response, outcome.status, outcome.message, outcome.headers);
    if (outcome.kind === 'raw') {
      response.writeHead(outcome.status, { 'content-type': outcome.contentType });
      response.end(outcome.body);
      return;
    }
    record.reply = outcome.content;
    const completion = headOf(record, options);
    const usage =
      outcome.usage === undefined
        ? await estimateUsage(record.messages, outcome.content)
        : outcome.usage;
    const toolCalls = outcome.toolCalls ?? [];
    const finishReason = outcome.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop');
    if (record.body?.stream === true && outcome.json !== true)
      return sendStream(response, completion, outcome.content, finishReason, usage, toolCalls);
    const calls = toolCalls.length > 0 ? { tool_calls: toolCallsJson(toolCalls) } : {};
    const content = outcome.content === '' && toolCalls.length > 0 ? null : outcome.content;
    sendJson(response, 200, {
      ...completion,
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, ...calls },
          finish_reason: finishReason,
        },
      ],
      ...(usage ? { usage } : {}),
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closed: Promise<void> | undefined;
  return {
    url,
    baseUrl: `${url}/v1`,
    requests,
    inFlight,
    get modelsAsked() {
      return modelsAsked;
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

/** Rough token counts: 4 characters per text token, one token per 28×28 image patch. */
async function estimateUsage(messages: readonly ReceivedMessage[], reply: string): Promise<Usage> {
  let promptTokens = Math.ceil(messages.map(messageText).join('\n').length / 4);
  for (const url of imageUrls(messages)) {
    const size = await imageSizeFromDataUrl(url).catch(() => ({ width: 0, height: 0 }));
    promptTokens += Math.ceil((size.width * size.height) / (28 * 28));
  }
  const completionTokens = Math.ceil(reply.length / 4);
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

function headOf(record: ModelRequestRecord, options: ChatServerOptions): CompletionHead {
  return completionHead(record.body?.model ?? options.modelName);
}
