// What the qwen2.5-vl and qwen3-vl profiles share: the `computer_use` tool in a Hermes system
// prompt, the history as chat turns, replies read in both tool-call forms and mapped onto
// Clawdie's actions. Each profile brings its coordinate space, image policy, cookbook variant and
// the display size its prompt states. docs/models/qwen2.5-vl.md, docs/models/qwen3-vl.md.
import { smartResize } from '../uitars/smart-resize.js';
import type { Size } from '../uitars/types.js';
import type {
  CoordinateSpace,
  ImagePolicy,
  ModelProfile,
  ParseResult,
  ProfileImage,
  ProfileName,
  WireReply,
} from './profile-types.js';
import { mapQwenCalls } from './qwen-actions.js';
import {
  type ComputerUseVariant,
  computerUseTool,
  hermesSystemPrompt,
} from './qwen-hermes-prompt.js';
import { buildQwenMessages, type QwenTurnRaw } from './qwen-request.js';
import { readQwenToolCalls } from './qwen-tool-calls.js';

export interface QwenProfileSpec {
  name: Extract<ProfileName, 'qwen2.5-vl' | 'qwen3-vl'>;
  variant: ComputerUseVariant;
  coordinates: CoordinateSpace;
  /** smart_resize parameters of the image sent (qwen-vl-utils `smart_resize`). */
  resize: { factor: number; minPixels: number; maxPixels: number };
  maxImages: number;
  /** The screen resolution the tool description states, for the newest image. */
  display(image: Size): Size;
  limits: readonly string[];
}

/** smart_resize of `resize`, or the size unchanged where its aspect limit refuses (never for a browser). */
export function qwenImagePolicy(resize: QwenProfileSpec['resize'], maxImages: number): ImagePolicy {
  return {
    size: (width, height) => smartResize(width, height, resize) ?? { width, height },
    // vLLM decodes WebP (PIL), but llama.cpp and Ollama serve Qwen-VL too: JPEG is safe on all,
    // WebP where the server says it is vLLM, SGLang or Ollama ≥ 0.32.14.
    format: 'jpeg',
    preferred: 'webp',
    maxImages,
  };
}

export function createQwenProfile(spec: QwenProfileSpec): ModelProfile {
  const unusableNote = (why: string) =>
    `Your reply could not be used: ${why}. Think briefly, then call the tool as <tool_call>\n{"name": "computer_use", "arguments": {"action": …}}\n</tool_call>.`;
  return {
    name: spec.name,
    wire: 'chat-completions',
    coordinates: spec.coordinates,
    image: qwenImagePolicy(spec.resize, spec.maxImages),
    canJudge: true,
    limits: spec.limits,
    buildRequest(input) {
      const tool = (image: ProfileImage) =>
        computerUseTool(spec.variant, spec.display(image), input.actionSpace === 'browser');
      return buildQwenMessages(input, (image) => hermesSystemPrompt(tool(image)));
    },
    readReply(reply: WireReply) {
      const read = readQwenToolCalls(reply);
      const raw: QwenTurnRaw = { content: read.content, calls: read.ok ? read.calls.length : 0 };
      const turn = { raw, text: read.content };
      if (!read.ok) return { turn, parsed: { ok: false, message: read.message } };
      return { turn, parsed: parse(read.thought, read.calls) };
    },
    unusableNote,
  };
}

function parse(thought: string, calls: Parameters<typeof mapQwenCalls>[0]): ParseResult {
  if (calls.length === 0)
    return { ok: false, message: 'the reply has no <tool_call> of computer_use' };
  const { actions, refused } = mapQwenCalls(calls, thought);
  return { ok: true, reply: { thought, reflection: null, actions, safety: [], refused } };
}
