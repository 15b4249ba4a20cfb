// A fake Gemini API for the golden-coordinate tests: `POST /v1beta/models/{model}:generateContent`
// with the key in `x-goog-api-key`, answering real generateContent JSON (candidates → content →
// parts with text and `functionCall`, `finishReason`, `usageMetadata`). It checks the request the
// way the real API does where that is documented: contents with roles and parts, the computerUse
// tool (ENVIRONMENT_BROWSER), an image, and one functionResponse per functionCall of the model turn
// before it. Written from Google's documentation (0–999 grid, x = pixel / width × 1000), not from
// the profile. First request → click_at on the marker centre; next → a final text, no call.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { findMarker } from './find-marker.js';
import type { GoldenRequest, GoldenServer, GoldenServerOptions } from './golden-types.js';

export interface GeminiGoldenOptions extends GoldenServerOptions {
  /** Adds `safety_decision: require_confirmation` to the click; the next request must acknowledge it. */
  requireConfirmation?: boolean;
}

type Json = Record<string, unknown>;

class BadRequest extends Error {
  readonly status: number;
  readonly googleStatus: string;
  constructor(message: string, status = 400, googleStatus = 'INVALID_ARGUMENT') {
    super(message);
    this.status = status;
    this.googleStatus = googleStatus;
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function checkKey(request: IncomingMessage, apiKey: string | undefined): void {
  if (apiKey === undefined) return;
  const sent = request.headers['x-goog-api-key'];
  if (sent === undefined) {
    throw new BadRequest("Method doesn't allow unregistered callers", 403, 'PERMISSION_DENIED');
  }
  if (sent !== apiKey) throw new BadRequest('API key not valid. Please pass a valid API key.');
}

/** Contents, checked; returns them with the newest image (base64) found in them. */
function checkContents(body: Json): {
  contents: Json[];
  newestImage: string | null;
  images: number;
} {
  const contents = body.contents;
  if (!Array.isArray(contents) || contents.length === 0)
    throw new BadRequest('contents is required');
  let newestImage: string | null = null;
  let images = 0;
  const take = (blob: unknown) => {
    if (!isObject(blob) || typeof blob.data !== 'string' || typeof blob.mimeType !== 'string') {
      throw new BadRequest('inlineData needs mimeType and data');
    }
    if (!/^image\/(jpeg|png|webp)$/.test(blob.mimeType))
      throw new BadRequest('unsupported mimeType');
    newestImage = blob.data;
    images += 1;
  };
  for (const content of contents) {
    if (!isObject(content) || (content.role !== 'user' && content.role !== 'model')) {
      throw new BadRequest('each content needs role "user" or "model"');
    }
    if (!Array.isArray(content.parts) || content.parts.length === 0) {
      throw new BadRequest('contents.parts must not be empty');
    }
    for (const part of content.parts) {
      if (!isObject(part)) throw new BadRequest('a part must be an object');
      if (part.inlineData !== undefined) take(part.inlineData);
      const response = part.functionResponse;
      if (isObject(response) && Array.isArray(response.parts)) {
        for (const inner of response.parts) take(isObject(inner) ? inner.inlineData : null);
      }
    }
  }
  return { contents: contents as Json[], newestImage, images };
}

function checkTool(body: Json): void {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const tool = tools.find((entry) => isObject(entry) && isObject(entry.computerUse)) as
    | Json
    | undefined;
  const computerUse = tool?.computerUse as Json | undefined;
  if (computerUse?.environment !== 'ENVIRONMENT_BROWSER') {
    throw new BadRequest('the computerUse tool with environment ENVIRONMENT_BROWSER is required');
  }
}

function partsOf(content: Json, key: 'functionCall' | 'functionResponse'): Json[] {
  return (content.parts as Json[]).flatMap((part) =>
    isObject(part[key]) ? [part[key] as Json] : [],
  );
}

/** Every model turn's calls answered, name for name, in the next user turn (the API's rule). */
function checkAnswers(contents: Json[], requireAck: boolean): void {
  contents.forEach((content, index) => {
    const calls = partsOf(content, 'functionCall');
    if (content.role !== 'model' || calls.length === 0) return;
    const next = contents[index + 1];
    const responses = next?.role === 'user' ? partsOf(next, 'functionResponse') : [];
    if (responses.length !== calls.length) {
      throw new BadRequest(
        'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
      );
    }
    calls.forEach((call, i) => {
      const response = responses[i] as Json;
      if (response.name !== call.name || !isObject(response.response)) {
        throw new BadRequest(
          `functionResponse ${i} must answer ${String(call.name)} with a response object`,
        );
      }
      const args = isObject(call.args) ? call.args : {};
      if (
        requireAck &&
        args.safety_decision &&
        response.response.safety_acknowledgement !== 'true'
      ) {
        throw new BadRequest('the safety decision was not acknowledged');
      }
    });
  });
  if (contents.at(-1)?.role !== 'user') throw new BadRequest("the last content must be the user's");
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  response.end(JSON.stringify(body));
}

function reply(parts: Json[], images: number): Json {
  const promptTokenCount = 100 + 1032 * images;
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount,
      candidatesTokenCount: 24,
      totalTokenCount: promptTokenCount + 24,
    },
    modelVersion: 'gemini-2.5-computer-use-preview-10-2025',
  };
}

export async function startGeminiGolden(options: GeminiGoldenOptions = {}): Promise<GoldenServer> {
  const requests: GoldenRequest[] = [];
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const raw = await readBody(request);
    const path = request.url ?? '';
    try {
      if (request.method !== 'POST' || !/^\/v1beta\/models\/[^/:]+:generateContent$/.test(path)) {
        throw new BadRequest(`no route ${request.method} ${path}`, 404, 'NOT_FOUND');
      }
      checkKey(request, options.apiKey);
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new BadRequest('Invalid JSON payload received.');
      }
      if (!isObject(body)) throw new BadRequest('the body must be a JSON object');
      const { contents, newestImage, images } = checkContents(body);
      checkTool(body);
      checkAnswers(contents, options.requireConfirmation === true);
      if (newestImage === null) throw new BadRequest('the request has no screenshot');
      const found = await findMarker(newestImage, options.codec);
      const step = contents.filter((content) => content.role === 'model').length;
      const record: GoldenRequest = {
        path,
        body,
        bodyBytes: raw.length,
        image: { width: found.width, height: found.height, format: found.format },
        marker: found.centre,
        answered: null,
      };
      requests.push(record);
      if (step > 0 || found.centre === null) {
        const text =
          found.centre === null ? 'I cannot find the marker.' : 'I clicked the marker. Done.';
        send(response, 200, reply([{ text }], images));
        return;
      }
      const x = Math.min(999, Math.round((found.centre.x / found.width) * 1000));
      const y = Math.min(999, Math.round((found.centre.y / found.height) * 1000));
      record.answered = { x, y };
      const args: Json = { x, y };
      if (options.requireConfirmation) {
        args.safety_decision = {
          decision: 'require_confirmation',
          explanation: 'Clicking the marker may submit something; please confirm.',
        };
      }
      const parts = [
        { text: 'The marker is on the page; I will click it.' },
        { functionCall: { name: 'click_at', args } },
      ];
      send(response, 200, reply(parts, images));
    } catch (error) {
      const status = error instanceof BadRequest ? error.status : 500;
      const googleStatus = error instanceof BadRequest ? error.googleStatus : 'INTERNAL';
      const message = error instanceof Error ? error.message : String(error);
      send(response, status, { error: { code: status, message, status: googleStatus } });
    }
  };
  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1beta`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
