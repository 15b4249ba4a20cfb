// The image codec tests hand their code under test: sharp, as `auto` picks on this machine. Tests
// of the pure-JS fallback build `createJsCodec()` (or select with a failing loader) themselves.
import { createSharpCodec } from '@clawdie/kit/images';
import sharp from 'sharp';

export const testImages = createSharpCodec(sharp);
