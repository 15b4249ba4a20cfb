// A fake OpenAI Responses API for the golden-coordinate tests, written from the API's own shapes
// (openai SDK `ResponseCreateParams`, `Response`, `ResponseComputerToolCall`): POST /v1/responses
// with a bearer key, a computer tool (`computer_use_preview` with its declared display, or the GA
// `computer`), and the history resent in `input`. It validates what the real API rejects, finds
// the marker in the newest screenshot and answers a `computer_call` click on it in display
// pixels; once the input holds a computer_call, it ends the task with a message.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendError, sendJson } from '../chat-server-writers.js';
import { testImages } from '../test-images.js';
import { type CheckedRequest, checkResponsesRequest } from './fake-openai-responses-check.js';
import { findMarker } from './find-marker.js';
import type { GoldenRequest, GoldenServer, GoldenServerOptions } from './golden-types.js';

export interface OpenAiResponsesGoldenOptions extends GoldenServerOptions {
  /** Attach this `pending_safety_checks` entry to the click; its output must acknowledge it. */
  safetyCheck?: { id: string; code: string; message: string };
}

export async function startOpenAiResponsesGolden(
  options: OpenAiResponsesGoldenOptions = {},
): Promise<GoldenServer> {
  const requests: GoldenRequest[] = [];
  const codec = options.codec ?? testImages;
  let serial = 0;
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, 500, String(error));
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const text = await readBody(request);
    if (request.method !== 'POST' || request.url !== '/v1/responses') {
      return sendError(response, 404, `Invalid URL (${request.method} ${request.url})`);
    }
    if (options.apiKey && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      return sendError(response, 401, 'Incorrect API key provided.');
    }
    const checked = checkResponsesRequest(text);
    if (!checked.ok) return sendError(response, 400, checked.message);
    const found = await findMarker(checked.image, codec);
    const display = checked.display ?? { width: found.width, height: found.height };
    serial += 1;
    const record: GoldenRequest = {
      path: request.url,
      body: checked.body,
      bodyBytes: Buffer.byteLength(text),
      image: { width: found.width, height: found.height, format: found.format },
      marker: found.centre,
      answered: null,
    };
    requests.push(record);
    let output: unknown[];
    if (!checked.answeredCall && found.centre) {
      const x = Math.round((found.centre.x / found.width) * display.width);
      const y = Math.round((found.centre.y / found.height) * display.height);
      record.answered = { x, y };
      output = [
        reasoning(serial, checked, 'The marker is on screen; I click it.'),
        click(serial, checked, x, y),
      ];
    } else {
      const text = found.centre ? 'Clicked the marker. Done.' : 'I cannot find the marker.';
      output = [reasoning(serial, checked, 'The task is done.'), message(serial, text)];
    }
    sendJson(response, 200, responseBody(serial, checked, output, text.length));
  }

  function click(
    n: number,
    checked: CheckedRequest,
    x: number,
    y: number,
  ): Record<string, unknown> {
    const action = { type: 'click', button: 'left', x, y };
    return {
      type: 'computer_call',
      id: `cu_${n}`,
      call_id: `call_${n}`,
      ...(checked.tool === 'computer' ? { actions: [action] } : { action }),
      pending_safety_checks: options.safetyCheck ? [options.safetyCheck] : [],
      status: 'completed',
    };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function reasoning(n: number, checked: CheckedRequest, text: string): Record<string, unknown> {
  return {
    type: 'reasoning',
    id: `rs_${n}`,
    summary: [{ type: 'summary_text', text }],
    encrypted_content: checked.encryptedReasoning ? `enc-reasoning-${n}` : null,
  };
}

function message(n: number, text: string): Record<string, unknown> {
  return {
    type: 'message',
    id: `msg_${n}`,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
}

function responseBody(n: number, checked: CheckedRequest, output: unknown[], chars: number) {
  const inputTokens = Math.ceil(chars / 4);
  return {
    id: `resp_${n}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'completed',
    error: null,
    incomplete_details: null,
    model: checked.body.model,
    output,
    parallel_tool_calls: true,
    store: false,
    truncation: checked.body.truncation ?? 'disabled',
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 40,
      output_tokens_details: { reasoning_tokens: 24 },
      total_tokens: inputTokens + 40,
    },
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
