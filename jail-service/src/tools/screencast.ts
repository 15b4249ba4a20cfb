// The `screencast` tool: the page as a paced stream of JPEG frames (`stream` namespace).
import { z } from 'zod';
import { BrowserUnavailableError } from '../errors.js';
import { defineTools, tool } from './tool.js';

export const screencastInputSchema = z.strictObject({
  /** Lowest frame rate: the last frame is repeated when the page paints nothing new. */
  fps: z.number().int().min(1).max(30).default(4),
  quality: z.number().int().min(1).max(100).default(60),
  max_width: z.number().int().min(64).max(4096).default(1280),
  max_height: z.number().int().min(64).max(4096).default(1280),
});
export type ScreencastInput = z.input<typeof screencastInputSchema>;

/** One JPEG per chunk; at least `fps` chunks a second once the first frame arrived. */
export type FrameStream = ReadableStream<Uint8Array>;

/**
 * The stream namespace: only offered with a ScreencastSource. Its bound covers starting the
 * screencast only; the stream then runs until the reader cancels it. A slow reader gets the newest
 * frame, never a backlog.
 */
export const streamTools = defineTools('stream', {
  screencast: tool<ScreencastInput, FrameStream>({
    description:
      'Live JPEG frames of the page (CDP screencast), repeated so at least `fps` arrive per second; served as multipart/x-mixed-replace by GET /screencast.',
    inputSchema: screencastInputSchema,
    timeout: { base: 'action' },
    handle: async (input, call) => {
      const source = call.screencast;
      if (!source) throw new BrowserUnavailableError('this surface has no screencast source');
      const settings = screencastInputSchema.parse(input);
      let latest: Uint8Array | null = null;
      let sentSinceTick = false;
      let timer: NodeJS.Timeout | undefined;
      let leave: (() => Promise<void>) | undefined;
      let push: (jpeg: Uint8Array) => void = () => undefined;
      const stream = new ReadableStream<Uint8Array>(
        {
          start(controller) {
            push = (jpeg) => {
              latest = jpeg;
              sentSinceTick = true;
              if ((controller.desiredSize ?? 0) > 0) controller.enqueue(jpeg);
            };
            timer = setInterval(() => {
              if (!sentSinceTick && latest && (controller.desiredSize ?? 0) > 0)
                controller.enqueue(latest);
              sentSinceTick = false;
            }, 1000 / settings.fps);
          },
          async cancel() {
            clearInterval(timer);
            await leave?.();
          },
        },
        new CountQueuingStrategy({ highWaterMark: 2 }),
      );
      try {
        leave = await source.subscribe(
          {
            quality: settings.quality,
            maxWidth: settings.max_width,
            maxHeight: settings.max_height,
          },
          (jpeg) => push(jpeg),
        );
      } catch (error) {
        clearInterval(timer);
        throw error;
      }
      return stream;
    },
  }),
});

/** Wraps a frame stream as `multipart/x-mixed-replace` parts (what `<img>` plays as MJPEG). */
export function toMultipart(frames: FrameStream, boundary: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return frames.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(jpeg, controller) {
        const head = `--${boundary}\r\nContent-Type: image/jpeg\r\nContent-Length: ${jpeg.length}\r\n\r\n`;
        const part = new Uint8Array(head.length + jpeg.length + 2);
        part.set(encoder.encode(head), 0);
        part.set(jpeg, head.length);
        part.set(encoder.encode('\r\n'), head.length + jpeg.length);
        controller.enqueue(part);
      },
    }),
  );
}
