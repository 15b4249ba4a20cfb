// Captures per display, serialised and shared: jobs watching the same display reuse a capture
// that is in flight or fresh enough, and never capture concurrently (one X server / one page).

import type { ImageCodec } from '@clawdie/kit/images';
import type { Clock } from '../../clock.js';
import { type Thumbnail, thumbnailOfImage } from './frame-diff.js';
import type { FrameSource } from './wait-types.js';

export interface Frame {
  jpeg: Buffer;
  thumbnail: Thumbnail;
  at: number;
}

interface Display {
  chain: Promise<unknown>;
  inFlight: Promise<Frame> | null;
  latest: Frame | null;
}

export class FrameHub {
  readonly #clock: Clock;
  /** Reduces frames to thumbnails, and scales them for the judge. */
  readonly images: ImageCodec;
  readonly #displays = new Map<string, Display>();
  #captures = 0;

  constructor(clock: Clock, images: ImageCodec) {
    this.#clock = clock;
    this.images = images;
  }

  /** Total captures made (for outcomes and benchmarks). */
  get captures(): number {
    return this.#captures;
  }

  /** A frame no older than `maxAgeMs`: the fresh latest, the one being captured, or a new one. */
  frame(source: FrameSource, maxAgeMs: number, signal?: AbortSignal): Promise<Frame> {
    let display = this.#displays.get(source.key);
    if (!display) {
      display = { chain: Promise.resolve(), inFlight: null, latest: null };
      this.#displays.set(source.key, display);
    }
    if (display.inFlight) return display.inFlight;
    const latest = display.latest;
    if (latest && this.#clock.now() - latest.at <= maxAgeMs) return Promise.resolve(latest);
    const current = display;
    const capture = current.chain.then(async () => {
      this.#captures += 1;
      const jpeg = await source.capture(signal);
      // A static screen usually re-encodes to the same bytes: reuse its thumbnail, no decode.
      const previous = current.latest;
      const thumbnail = previous?.jpeg.equals(jpeg)
        ? previous.thumbnail
        : await thumbnailOfImage(jpeg, this.images);
      const frame = { jpeg, thumbnail, at: this.#clock.now() };
      current.latest = frame;
      return frame;
    });
    current.inFlight = capture;
    current.chain = capture.catch(() => undefined);
    const clear = () => {
      if (current.inFlight === capture) current.inFlight = null;
    };
    capture.then(clear, clear);
    return capture;
  }

  /** Drops a display's cached frame (e.g. after the last job on it ended). */
  forget(key: string): void {
    const display = this.#displays.get(key);
    if (display && !display.inFlight) this.#displays.delete(key);
  }
}
