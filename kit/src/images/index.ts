// Public surface of `@clawdie/kit/images`: the image codec port, its two adapters and
// the per-process selection (CLAWDIE_IMAGE_ENCODER). The controlplane and the jail-service's
// desktop surface import it from here.

export {
  type DeferredImageCodec,
  deferImageCodec,
  type MaskCodec,
  NOT_YET_CHOSEN,
} from './defer-codec.js';
export {
  IMAGE_ENCODER_MODES,
  IMAGE_FORMATS,
  type ImageCodec,
  ImageCodecError,
  type ImageEncoderMode,
  type ImageFormat,
  insideSize,
  type RawImage,
  type Reduction,
  type ResizeJpegOptions,
  type ResizeOptions,
  reducedSize,
} from './image-codec.js';
export { imageSize } from './image-size.js';
export { jpegSize } from './jpeg-size.js';
export { createJsCodec } from './js-codec.js';
export {
  type ImageCodecChoice,
  type SelectCodecOptions,
  selectImageCodec,
} from './select-codec.js';
export { createSharpCodec, type Sharp } from './sharp-codec.js';
