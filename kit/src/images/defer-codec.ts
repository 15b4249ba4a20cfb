// A codec chosen on its first use. A browser clone's jail-service encodes only to paint masks over
// secret fields, and loading sharp costs each one ≈ 4.5 MiB of memory (docs/performance.md,
// "Concurrency and PSS on 2 cores"): with `CLAWDIE_IMAGE_ENCODER=auto` most clones never need it.
import type { ImageCodec } from './image-codec.js';
import type { ImageCodecChoice } from './select-codec.js';

/** The two calls screenshot masks make. */
export type MaskCodec = Pick<ImageCodec, 'decode' | 'encodeJpeg'>;

export interface DeferredImageCodec {
  codec: MaskCodec;
  /** The choice's summary once made; before, a line saying it is made on first use. */
  summary(): string;
}

/** What `summary()` says before the first encode or decode. */
export const NOT_YET_CHOSEN = 'chosen on first use (CLAWDIE_IMAGE_ENCODER=auto)';

/**
 * Calls `choose` once, on the first `decode` or `encodeJpeg`, then `onChosen` with its result
 * (where the caller logs it); every call then goes to the chosen codec. A rejected choice rejects
 * that call and is retried on the next.
 */
export function deferImageCodec(
  choose: () => Promise<ImageCodecChoice>,
  onChosen: (choice: ImageCodecChoice) => void,
): DeferredImageCodec {
  let choice: ImageCodecChoice | undefined;
  let choosing: Promise<ImageCodecChoice> | undefined;
  const chosen = async (): Promise<MaskCodec> => {
    if (choice) return choice.codec;
    choosing ??= choose().then(
      (made) => {
        choice = made;
        onChosen(made);
        return made;
      },
      (error: unknown) => {
        choosing = undefined;
        throw error;
      },
    );
    return (await choosing).codec;
  };
  return {
    codec: {
      decode: async (image) => (await chosen()).decode(image),
      encodeJpeg: async (image, quality) => (await chosen()).encodeJpeg(image, quality),
    },
    summary: () => choice?.summary ?? NOT_YET_CHOSEN,
  };
}
