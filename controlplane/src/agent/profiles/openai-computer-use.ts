// The `openai-computer-use` profile: OpenAI's Responses API computer tool. The model answers
// `computer_call` items whose action objects carry pixels of the display the request declares,
// which is the screenshot as sent (image-pixels, 1:1). Two tool shapes exist (openai SDK types
// `ComputerUsePreviewTool`, `ComputerTool`): `computer_use_preview` (model computer-use-preview;
// display_width/height declared) and the GA `computer` tool (gpt-5.4 and later; no declared
// display, batched `actions`, screenshots read at `detail: 'original'`). docs/models.md.
import type { Size } from '../uitars/types.js';
import { readOpenAiReply } from './openai-computer-use-reply.js';
import { buildOpenAiRequest, type OpenAiComputerTool } from './openai-computer-use-request.js';
import type { ImagePolicy, ModelProfile } from './profile-types.js';

/**
 * Image limits per tool. Preview: OpenAI's high-detail vision path scales an image to fit 2048²
 * and then to a shortest side of 768 px, so an image already within 768 (short) × 2000 (long) is
 * read as sent and the declared display equals what the model sees. GA `computer` with
 * `detail: 'original'` reads the image at its own size; OpenAI's guide suggests about 1440×900 or
 * 1600×900 for computer use, so screenshots are fitted into 1600×900 (landscape, or its
 * transpose).
 */
const LIMITS: Readonly<
  Record<OpenAiComputerTool, { short: number; long: number; images: number }>
> = {
  computer_use_preview: { short: 768, long: 2000, images: 3 },
  computer: { short: 900, long: 1600, images: 5 },
};

/** Scales `width × height` down (never up), aspect kept, to fit the tool's short/long side caps. */
export function openAiImageSize(width: number, height: number, tool: OpenAiComputerTool): Size {
  const { short, long } = LIMITS[tool];
  const scale = Math.min(1, short / Math.min(width, height), long / Math.max(width, height));
  if (scale === 1) return { width, height };
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

export function createOpenAiComputerUseProfile(tool: OpenAiComputerTool): ModelProfile {
  const image: ImagePolicy = {
    size: (width, height) => openAiImageSize(width, height, tool),
    format: 'webp',
    maxImages: LIMITS[tool].images,
    olderAtLowerQuality: true,
  };
  return {
    name: 'openai-computer-use',
    wire: 'openai-responses',
    coordinates: { kind: 'image-pixels' },
    image,
    canJudge: false,
    limits: [
      'Middle click (button wheel) and browser forward are refused to the model.',
      'No URL bar action: the model navigates by clicking and typing like a person.',
      'Scroll distances are display pixels taken as CSS pixels (off by the resize factor).',
      'Judging needs chat completions, which this profile does not speak.',
      tool === 'computer_use_preview'
        ? 'The preview model has a small context: at most 3 screenshots per request.'
        : 'The GA computer tool needs a model that supports it (gpt-5.4 or later).',
    ],
    buildRequest: (input) => buildOpenAiRequest(input, tool),
    readReply: readOpenAiReply,
    unusableNote: (why) =>
      `Your last reply could not be used: ${why}. Answer with a computer_call to act on the screenshot, or with a message stating the result when the task is done.`,
  };
}

/** The profile with `computer_use_preview` (display declared = the screenshot as sent). */
export const openAiComputerUseProfile: ModelProfile =
  createOpenAiComputerUseProfile('computer_use_preview');

/** The same profile with the GA `computer` tool, for gpt-5.4 and later models. */
export const openAiComputerToolProfile: ModelProfile = createOpenAiComputerUseProfile('computer');
