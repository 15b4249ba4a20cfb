// The UI-TARS profiles: plain-text `Thought: … Action: …` over chat completions, no tool calling
// (uitars-protocol.md). 1.5 writes absolute pixels of the smart-resized image (factor 28), 1.0
// relative 0–1000 on an image capped at 2700 visual tokens. The system prompt is merged into the
// first user message, as the UI-TARS desktop app sends it.
import type { ChatMessage, ContentPart } from '../model/chat-types.js';
import { buildSystemPrompt, parsePrediction, smartResize } from '../uitars/index.js';
import { keptImages } from './image-window.js';
import type { ModelProfile, RequestInput } from './profile-types.js';

/** Pixel cap UI-TARS 1.0 servers apply (2700 visual tokens of 28×28). */
const MAX_PIXELS_V1_0 = 2700 * 28 * 28;

function uiTarsProfile(mode: '1.5' | '1.0'): ModelProfile {
  return {
    name: mode === '1.5' ? 'ui-tars-1.5' : 'ui-tars-1.0',
    wire: 'chat-completions',
    coordinates: mode === '1.5' ? { kind: 'image-pixels' } : { kind: 'relative', divisor: 1000 },
    image: {
      size(width, height) {
        if (mode === '1.5') return smartResize(width, height) ?? { width, height };
        if (width * height <= MAX_PIXELS_V1_0) return { width, height };
        const scale = Math.sqrt(MAX_PIXELS_V1_0 / (width * height));
        return { width: Math.floor(width * scale), height: Math.floor(height * scale) };
      },
      // The operator's CLAWDIE_MODEL_IMAGE_WINDOW (default 5, vLLM's `--limit-mm-per-prompt
      // image=5` of the UI-TARS deployment guide) decides; the profile adds no cap of its own.
      // llama.cpp's stb_image cannot decode WebP (docs/models.md, "Image formats"): JPEG, and
      // WebP where the server says it is vLLM, SGLang (Pillow) or Ollama ≥ 0.32.14.
      format: 'jpeg',
      preferred: 'webp',
      maxImages: 50,
    },
    canJudge: true,
    limits: [
      'one model turn may hold several actions; Clawdie runs at most the reply limit of them',
      'no provider safety signal: approvals come from the tenant policy alone',
    ],
    buildRequest: (input) => ({ messages: uiTarsMessages(mode, input) }),
    readReply(reply) {
      const parsed = parsePrediction(reply.text);
      const turn = { raw: reply.text, text: reply.text };
      if (!parsed.success) return { turn, parsed: { ok: false, message: parsed.error.message } };
      const { thought, reflection, actions } = parsed.data;
      return {
        turn,
        parsed: { ok: true, reply: { thought, reflection, actions, safety: [], refused: [] } },
      };
    },
    unusableNote: (why) =>
      `Your last reply could not be used (${why}). Answer in the format "Thought: ...\\nAction: ..." with one of the listed actions.`,
  };
}

/**
 * The prompt and instruction as one user message, then per step the notes and the screenshot
 * (only the newest `imageWindow` screenshots) and the model's reply text.
 */
function uiTarsMessages(mode: '1.5' | '1.0', input: RequestInput): ChatMessage[] {
  const prompt = buildSystemPrompt({ mode, actionSpace: input.actionSpace });
  const out: ChatMessage[] = [{ role: 'user', content: `${prompt}${input.instruction}` }];
  const kept = keptImages(input.history, input.imageWindow);
  for (const [index, turn] of input.history.entries()) {
    if (turn.kind === 'reply') {
      out.push({ role: 'assistant', content: String(turn.turn.raw) });
      continue;
    }
    const parts: ContentPart[] = turn.notes.map((text) => ({ type: 'text', text }));
    if (kept.has(index)) parts.push({ type: 'image_url', image_url: { url: turn.image.dataUrl } });
    if (parts.length > 0) out.push({ role: 'user', content: parts });
  }
  return out;
}

export const uiTars15: ModelProfile = uiTarsProfile('1.5');
export const uiTars10: ModelProfile = uiTarsProfile('1.0');
