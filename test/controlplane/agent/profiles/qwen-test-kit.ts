// What the qwen2.5-vl and qwen3-vl profile tests share: synthetic screenshots with the golden
// marker, two-step histories, and one request over real HTTP to the golden fake, read back through
// the chat readers (the lead's chat-completions wire replaces `postChat` at merge).
import sharp from 'sharp';
import { createOpenAiCompatibleModel } from '../../../../controlplane/src/agent/model/openai-compatible-model.js';
import type {
  HistoryTurn,
  ModelProfile,
  ModelTurn,
  ProfileImage,
  RequestInput,
  WireReply,
} from '../../../../controlplane/src/agent/profiles/profile-types.js';

/** A plain screenshot of `viewport` CSS px at `dpr` with a 24-CSS-px magenta square centred at `marker`. */
export async function screenshotWithMarker(
  viewport: { width: number; height: number },
  dpr: number,
  marker: { x: number; y: number },
): Promise<Buffer> {
  const side = 24 * dpr;
  const square = await sharp({
    create: { width: side, height: side, channels: 3, background: { r: 255, g: 0, b: 255 } },
  })
    .png()
    .toBuffer();
  return sharp({
    create: {
      width: viewport.width * dpr,
      height: viewport.height * dpr,
      channels: 3,
      background: { r: 236, g: 238, b: 241 },
    },
  })
    .composite([
      {
        input: square,
        left: Math.round(marker.x * dpr - side / 2),
        top: Math.round(marker.y * dpr - side / 2),
      },
    ])
    .png()
    .toBuffer();
}

/** The screenshot as the profile sends it: resized to its image policy, JPEG. */
export async function profileImage(profile: ModelProfile, png: Buffer): Promise<ProfileImage> {
  const meta = await sharp(png).metadata();
  const size = profile.image.size(meta.width ?? 0, meta.height ?? 0);
  const jpeg = await sharp(png)
    .resize(size.width, size.height, { fit: 'fill' })
    .jpeg({ quality: 80 })
    .toBuffer();
  const base64 = jpeg.toString('base64');
  return {
    dataUrl: `data:image/jpeg;base64,${base64}`,
    base64,
    mediaType: 'image/jpeg',
    width: size.width,
    height: size.height,
    bytes: jpeg.length,
  };
}

/** A tiny fixed image for request goldens (its bytes do not matter, its size does). */
export function fixedImage(width: number, height: number, tag: string): ProfileImage {
  const base64 = Buffer.from(`jpeg-${tag}`).toString('base64');
  return {
    dataUrl: `data:image/jpeg;base64,${base64}`,
    base64,
    mediaType: 'image/jpeg',
    width,
    height,
    bytes: 9,
  };
}

export const observation = (image: ProfileImage, notes: string[] = []): HistoryTurn => ({
  kind: 'observation',
  image,
  notes,
  acknowledged: [],
});

export const replyTurn = (turn: ModelTurn): HistoryTurn => ({ kind: 'reply', turn });

export const input = (history: HistoryTurn[], imageWindow = 3): RequestInput => ({
  instruction: 'Click the magenta square.',
  history,
  actionSpace: 'browser',
  imageWindow,
});

/** A WireReply as the chat-completions wire hands it over (text, and the body's message). */
export function wireReply(
  content: string,
  toolCalls: { name: string; arguments: string }[] = [],
): WireReply {
  const tool_calls = toolCalls.map((call, index) => ({
    id: `call_${index}`,
    type: 'function',
    function: call,
  }));
  const message = {
    role: 'assistant',
    content: content === '' && toolCalls.length > 0 ? null : content,
    ...(toolCalls.length > 0 ? { tool_calls } : {}),
  };
  return { text: content, body: { choices: [{ message, finish_reason: 'stop' }] } };
}

/** Sends the profile's body to `baseUrl` through the real client and chat wire, as a task does. */
export async function postChat(
  baseUrl: string,
  body: Record<string, unknown>,
  stream: boolean,
  apiKey = 'golden-key',
): Promise<WireReply> {
  const client = createOpenAiCompatibleModel({
    baseUrl,
    model: 'qwen',
    apiKey,
    timeoutMs: 10_000,
    retries: 0,
    maxTokens: 512,
    temperature: 0,
    stream,
  });
  const reply = await client.complete({ messages: [], body });
  return { text: reply.text, body: reply.body ?? null };
}
