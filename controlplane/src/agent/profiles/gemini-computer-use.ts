// The gemini-computer-use profile: Gemini's built-in computer-use tool over generateContent
// (models gemini-2.5-computer-use-preview-10-2025, gemini-3-flash-preview,
// gemini-3.1-pro-preview — the reference's "legacy" function set). Points on a 0–999 grid
// (x / 1000 × width: agent.py `denormalize_x`); `safety_decision: require_confirmation` becomes a
// Clawdie approval and, once approved, `safety_acknowledgement: "true"` in the function response.
// A reply without a function call ends the task with its text. docs/models/gemini-computer-use.md.

import { geminiFinishReason, geminiReplyParts } from '../model/wires/gemini-generate-content.js';
import type { Size } from '../uitars/types.js';
import { MAX_ACTIONS_PER_CALL, mapGeminiCall } from './gemini-computer-use-calls.js';
import { buildGeminiRequest, functionCalls } from './gemini-computer-use-request.js';
import type {
  ModelProfile,
  ParsedReply,
  ParseResult,
  SafetySignal,
  WireReply,
} from './profile-types.js';

type Json = Record<string, unknown>;

/** Google's recommended screen size for the Computer Use model (docs; main.py PLAYWRIGHT_SCREEN_SIZE). */
export const GEMINI_SCREEN: Size = { width: 1440, height: 900 };

/** Screenshots kept per request: the reference's MAX_RECENT_TURN_WITH_SCREENSHOTS. */
export const GEMINI_MAX_IMAGES = 3;

/** Fits a screenshot inside 1440×900, aspect kept, never enlarged. */
export function geminiImageSize(width: number, height: number): Size {
  const scale = Math.min(1, GEMINI_SCREEN.width / width, GEMINI_SCREEN.height / height);
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function safetySignal(args: Json, call: number, name: string): SafetySignal | null {
  const decision = args.safety_decision;
  if (!isObject(decision)) return null;
  const code = typeof decision.decision === 'string' ? decision.decision : 'require_confirmation';
  // Only `require_confirmation` is documented; anything but an explicit allow asks a supervisor.
  if (code === 'regular' || code === 'allowed') return null;
  const explanation = typeof decision.explanation === 'string' ? decision.explanation : '';
  return { code, message: explanation || `${name} needs confirmation`, ack: { call, name } };
}

function parse(body: unknown, thought: string): ParseResult {
  if (!isObject(body) || !Array.isArray(body.candidates) || body.candidates.length === 0) {
    return { ok: false, message: 'the reply has no candidates' };
  }
  const calls = functionCalls({ parts: geminiReplyParts(body) });
  const reply: ParsedReply = { thought, reflection: null, actions: [], safety: [], refused: [] };
  if (calls.length === 0) {
    const finish = geminiFinishReason(body);
    if (finish === 'MALFORMED_FUNCTION_CALL') {
      return { ok: false, message: 'the function call was malformed (MALFORMED_FUNCTION_CALL)' };
    }
    if (finish === 'MAX_TOKENS') {
      return { ok: false, message: 'the reply stopped at the token limit (MAX_TOKENS)' };
    }
    if (thought === '')
      return { ok: false, message: 'the reply has neither a function call nor text' };
    reply.actions.push({ name: 'finished', args: { content: thought } });
    return { ok: true, reply };
  }
  for (const [index, call] of calls.entries()) {
    const outcome = mapGeminiCall(call.name, call.args);
    if (outcome.kind === 'invalid') return { ok: false, message: outcome.message };
    if (outcome.kind === 'refused') reply.refused.push({ name: call.name, note: outcome.note });
    else reply.actions.push(...outcome.actions);
    const signal = safetySignal(call.args, index, call.name);
    if (signal !== null) reply.safety.push(signal);
  }
  return { ok: true, reply };
}

function replyText(thought: string, calls: ReturnType<typeof functionCalls>): string {
  const lines = calls.map((call) => `${call.name}(${JSON.stringify(call.args)})`);
  return [thought, ...lines].filter((line) => line !== '').join('\n');
}

export const geminiComputerUseProfile: ModelProfile = {
  name: 'gemini-computer-use',
  wire: 'gemini-generate-content',
  coordinates: { kind: 'relative', divisor: 1000 },
  image: {
    size: geminiImageSize,
    format: 'webp',
    maxImages: GEMINI_MAX_IMAGES,
    olderAtLowerQuality: true,
  },
  canJudge: false,
  observesUrl: true,
  limits: [
    'go_forward is refused (and left out of the tool); search opens https://www.google.com/.',
    "scroll_at's magnitude is a share of the viewport; scroll_document scrolls the configured amount.",
    'wait_5_seconds waits CLAWDIE_WAIT_MS (default 5000 ms).',
    `One function call becomes up to ${MAX_ACTIONS_PER_CALL} actions (type_text_at: click, ctrl a, backspace, type).`,
    'Only the function set of gemini-2.5-computer-use-preview-10-2025 / gemini-3-flash-preview is mapped; gemini-3.5-flash names are refused.',
  ],
  buildRequest: buildGeminiRequest,
  readReply(reply: WireReply) {
    const candidate =
      isObject(reply.body) && Array.isArray(reply.body.candidates)
        ? reply.body.candidates[0]
        : null;
    const content = isObject(candidate) && isObject(candidate.content) ? candidate.content : null;
    const parts = geminiReplyParts(reply.body);
    const thought = parts
      .filter((part) => typeof part.text === 'string' && part.thought !== true)
      .map((part) => part.text as string)
      .join('')
      .trim();
    const raw = content ?? { role: 'model', parts: [] };
    return {
      turn: { raw, text: replyText(thought, functionCalls(raw)) },
      parsed: parse(reply.body, thought),
    };
  },
  unusableNote(why) {
    return `Your last reply could not be used: ${why}. Answer with one computer-use function call (click_at, type_text_at, scroll_at, navigate, key_combination, …; x and y on the 0–999 grid), or, when the task is done, with the final answer as text and no function call.`;
  },
};
