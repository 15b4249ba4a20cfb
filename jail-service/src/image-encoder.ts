// The jail-service's image encoder (CLAWDIE_IMAGE_ENCODER): chosen at start where every
// screenshot needs it (a desktop display) or where start-up must fail without sharp (`sharp`);
// otherwise on the first masked screenshot, so a browser clone that never masks a secret field
// never loads sharp (≈ 4.5 MiB per clone, docs/performance.md).
import {
  deferImageCodec,
  type ImageCodec,
  type ImageCodecChoice,
  type ImageEncoderMode,
  type MaskCodec,
  type SelectCodecOptions,
  selectImageCodec,
} from '@clawdie/kit/images';
import type { Logger } from 'pino';

export interface ImageEncoder {
  /** Full codec: chosen at start (desktop display). */
  desktop: ImageCodec | null;
  /** Masks over secret fields in browser screenshots and the live view. */
  masks: MaskCodec;
  /** The choice for /health: the codec's summary, or that it is made on first use. */
  summary(): string;
}

export async function openImageEncoder(
  config: { imageEncoder: ImageEncoderMode; desktopDisplay: string | null },
  logger: Logger,
  options: SelectCodecOptions = {},
): Promise<ImageEncoder> {
  const choose = () => selectImageCodec(config.imageEncoder, options);
  if (config.imageEncoder === 'auto' && !config.desktopDisplay) {
    const deferred = deferImageCodec(choose, (choice) => logChoice(choice, logger));
    return { desktop: null, masks: deferred.codec, summary: deferred.summary };
  }
  // Before the browser: `sharp` without sharp fails start-up here.
  const choice = await choose();
  logChoice(choice, logger);
  const desktop = config.desktopDisplay ? choice.codec : null;
  return { desktop, masks: choice.codec, summary: () => choice.summary };
}

function logChoice(choice: ImageCodecChoice, logger: Logger): void {
  if (choice.fallbackReason) logger.warn({ images: choice.summary }, 'image encoder: pure JS');
  else logger.info({ images: choice.summary }, 'image encoder: sharp');
}
