// A fake Anthropic Messages API for the golden-coordinate tests, written from Anthropic's
// documentation (not from Clawdie's profile): POST /v1/messages with `x-api-key`,
// `anthropic-version` and the computer-use beta header; a `computer_2025…` tool declaring
// display_width_px × display_height_px; every tool_use answered by a tool_result in the next user
// message. The first request is answered with a `left_click` on the marker's centre, in the
// declared display's pixels (the centre found in the newest image, scaled by display / image);
// the next with a plain-text `end_turn` reply, the API's way of ending a turn without a tool.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type MessagesCheck, newestImage } from './anthropic-messages-checks.js';
import { findMarker } from './find-marker.js';
import type { GoldenRequest, GoldenServer, GoldenServerOptions } from './golden-types.js';

/** The beta each computer tool version needs (@ai-sdk/anthropic anthropic-prepare-tools.ts). */
const BETAS: Readonly<Record<string, string>> = {
  computer_20251124: 'computer-use-2025-11-24',
  computer_20250124: 'computer-use-2025-01-24',
};

export async function startAnthropicMessagesGolden(
  options: GoldenServerOptions = {},
): Promise<GoldenServer> {
  const requests: GoldenRequest[] = [];
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      sendError(response, 500, 'api_error', String(error));
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const bytes = await readBody(request);
    const path = (request.url ?? '').split('?')[0] ?? '';
    if (request.method !== 'POST' || path !== '/v1/messages') {
      return sendError(response, 404, 'not_found_error', `no route ${request.method} ${path}`);
    }
    if (options.apiKey !== undefined && request.headers['x-api-key'] !== options.apiKey) {
      return sendError(response, 401, 'authentication_error', 'invalid x-api-key');
    }
    if (request.headers['anthropic-version'] !== '2023-06-01') {
      return sendError(
        response,
        400,
        'invalid_request_error',
        'anthropic-version: header is required',
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(bytes.toString('utf8'));
    } catch {
      return sendError(response, 400, 'invalid_request_error', 'the body is not JSON');
    }
    const check = newestImage(body);
    if (!check.ok) return sendError(response, 400, 'invalid_request_error', check.message);
    const beta = BETAS[check.display.type];
    const betas = String(request.headers['anthropic-beta'] ?? '').split(',');
    if (beta === undefined || !betas.map((value) => value.trim()).includes(beta)) {
      return sendError(
        response,
        400,
        'invalid_request_error',
        `tool ${check.display.type} needs the beta ${beta}`,
      );
    }
    const record = await answer(check, body, bytes.length);
    requests.push(record.request);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(record.reply));
  }

  async function answer(check: MessagesCheck, body: unknown, bodyBytes: number) {
    const found = await findMarker(check.image.data, options.codec);
    const { display } = check;
    const model = (body as { model: string }).model;
    const first = requests.length === 0;
    const point =
      first && found.centre !== null
        ? {
            x: Math.round((found.centre.x / found.width) * display.width),
            y: Math.round((found.centre.y / found.height) * display.height),
          }
        : null;
    const content = point
      ? [
          { type: 'text', text: 'I can see the marker; clicking its centre.' },
          {
            type: 'tool_use',
            id: `toolu_golden_${requests.length + 1}`,
            name: 'computer',
            input: { action: 'left_click', coordinate: [point.x, point.y] },
          },
        ]
      : [
          {
            type: 'text',
            text: first ? 'I cannot find the marker.' : 'Done: the marker was clicked.',
          },
        ];
    const request: GoldenRequest = {
      path: '/v1/messages',
      body,
      bodyBytes,
      image: { width: found.width, height: found.height, format: found.format },
      marker: found.centre,
      answered: point,
    };
    const reply = {
      id: `msg_golden_${requests.length + 1}`,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: point ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: Math.ceil(bodyBytes / 4),
        output_tokens: 24,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    };
    return { request, reply };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function sendError(response: ServerResponse, status: number, type: string, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ type: 'error', error: { type, message } }));
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
