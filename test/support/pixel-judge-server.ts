// A vision judge on loopback that decides from the pixels it receives: an OpenAI-compatible
// chat-completions server (the fake model servers' core) that decodes the last image of each
// request with the image codec and answers `resolved` only when enough of its pixels have the
// marker colour, else `watching`. It records what it saw and said, so a test can tell that a
// verdict came from the screen and not from a script.
import type { ImageCodec } from '@clawdie/kit/images';
import { testImages } from './test-images.js';
import { imageUrls, messageText } from './uitars-test-model-messages.js';
import { type ChatServer, startChatServer } from './uitars-test-model-server.js';

/** One verdict as the judge gave it. */
export interface PixelVerdict {
  decision: 'resolved' | 'watching';
  /** Marker-coloured pixels in the last image (the screen now). */
  markerPixels: number;
  /** Images in the request (the screen now and earlier frames). */
  images: number;
  /** The prompt text (condition, ages, earlier verdicts). */
  prompt: string;
  /** When it was answered (Date.now()). */
  at: number;
}

export interface PixelJudge extends ChatServer {
  readonly verdicts: readonly PixelVerdict[];
}

export interface PixelJudgeOptions {
  /** The marker colour, RGB 0–255. */
  marker: readonly [number, number, number];
  /** Pixels of that colour (each channel within `tolerance`) that count as shown; default 200. */
  minPixels?: number;
  tolerance?: number;
  /** Required bearer key. */
  apiKey?: string;
  /** Decodes the images (default the tests' codec, `@clawdie/kit/images` over sharp). */
  codec?: ImageCodec;
}

export async function startPixelJudge(options: PixelJudgeOptions): Promise<PixelJudge> {
  const codec = options.codec ?? testImages;
  const verdicts: PixelVerdict[] = [];
  const server = await startChatServer({
    modelName: 'pixel-judge',
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    delayMs: () => 0,
    async respond(record) {
      const urls = imageUrls(record.messages);
      const last = urls.at(-1);
      if (!last) return { kind: 'error', status: 400, message: 'the judge got no image' };
      const markerPixels = await countMarker(codec, last, options);
      const decision = markerPixels >= (options.minPixels ?? 200) ? 'resolved' : 'watching';
      verdicts.push({
        decision,
        markerPixels,
        images: urls.length,
        prompt: record.messages.map(messageText).join('\n'),
        at: Date.now(),
      });
      const reason =
        decision === 'resolved'
          ? `the marker is shown (${markerPixels} px)`
          : `no marker on screen (${markerPixels} px)`;
      return {
        kind: 'reply',
        content: `Looked at the screen.\nFINAL_JSON: {"decision":"${decision}","reason":"${reason}"}`,
      };
    },
  });
  return Object.assign(server, { verdicts });
}

async function countMarker(
  codec: ImageCodec,
  dataUrl: string,
  options: PixelJudgeOptions,
): Promise<number> {
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  const image = await codec.decode(Buffer.from(base64, 'base64'));
  const tolerance = options.tolerance ?? 40;
  const [r, g, b] = options.marker;
  let count = 0;
  for (let i = 0; i < image.data.length; i += image.channels) {
    if (
      Math.abs((image.data[i] as number) - r) <= tolerance &&
      Math.abs((image.data[i + 1] as number) - g) <= tolerance &&
      Math.abs((image.data[i + 2] as number) - b) <= tolerance
    )
      count += 1;
  }
  return count;
}
