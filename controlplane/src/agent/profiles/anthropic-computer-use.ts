// anthropic-computer-use: Claude's computer tool over the Messages API (wire
// `anthropic-messages`). Coordinates are pixels of the declared display, which is the screenshot
// as sent (pre-resized per Anthropic's scaling guidance: anthropic-computer-use-image.ts), so
// they are image pixels 1:1. A reply with tool_use blocks acts; a reply without one is the end of
// the task, its text the answer. docs/models.md, "anthropic-computer-use".
import type { ModelAction } from '../uitars/types.js';
import { readToolUse, type ToolUseRead } from './anthropic-computer-use-actions.js';
import { anthropicImageSize } from './anthropic-computer-use-image.js';
import { buildMessagesRequest, replyBlocks } from './anthropic-computer-use-request.js';
import type { ComputerToolType } from './anthropic-computer-use-tools.js';
import type { ModelProfile, ModelTurn, ParseResult, WireReply } from './profile-types.js';

export interface AnthropicComputerUseOptions {
  /** The computer tool version to declare (default `computer_20251124`; match the wire's beta). */
  tool?: ComputerToolType;
}

/** Screenshots per request: cached reads make history cheap; older ones leave in chunks. */
const MAX_IMAGES = 20;

const LIMITS = [
  'triple_click, middle_click, hold_key, left_mouse_down/left_mouse_up, zoom and cursor_position are refused with a note',
  'a pointer action without its coordinate is refused (Clawdie does not track the pointer)',
  'wait waits Clawdie’s own step wait, not the duration asked',
  'no structured safety signal: the Messages API has none for the computer tool',
] as const;

export function createAnthropicComputerUseProfile(
  options: AnthropicComputerUseOptions = {},
): ModelProfile {
  const tool = options.tool ?? 'computer_20251124';
  return {
    name: 'anthropic-computer-use',
    wire: 'anthropic-messages',
    coordinates: { kind: 'image-pixels' },
    image: {
      size: anthropicImageSize,
      format: 'webp',
      maxImages: MAX_IMAGES,
      olderAtLowerQuality: true,
    },
    canJudge: false,
    limits: LIMITS,
    buildRequest: (input) => buildMessagesRequest(input, tool),
    readReply,
    unusableNote: (why) =>
      `Your last reply could not be used: ${why}. Act with tool calls (the computer tool's input.action with its arguments), or, when the task is done, answer with plain text and no tool call.`,
  };
}

/** The profile with the newest computer tool, `computer_20251124`. */
export const anthropicComputerUseProfile: ModelProfile = createAnthropicComputerUseProfile();

function readReply(reply: WireReply): { turn: ModelTurn; parsed: ParseResult } {
  const body = isRecord(reply.body) ? reply.body : {};
  const raw = Array.isArray(body.content) ? body.content : null;
  const blocks = replyBlocks(raw);
  const thought = blocks
    .flatMap((block) =>
      block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
    )
    .join('\n');
  const calls = blocks.filter((block) => block.type === 'tool_use');
  const reads = calls.map((call) => readToolUse(String(call.name), call.input));
  const text = [thought, ...calls.map(callText)].filter((line) => line !== '').join('\n');
  const turn: ModelTurn = { raw: raw ?? [], text };
  return { turn, parsed: parse(raw, calls, reads, thought, body.stop_reason) };
}

function parse(
  raw: unknown[] | null,
  calls: Record<string, unknown>[],
  reads: ToolUseRead[],
  thought: string,
  stopReason: unknown,
): ParseResult {
  if (raw === null) return { ok: false, message: 'the reply has no content blocks' };
  if (calls.some((call) => typeof call.id !== 'string' || typeof call.name !== 'string')) {
    return { ok: false, message: 'a tool_use block has no id or name' };
  }
  const broken = reads.flatMap((read) => (read.kind === 'malformed' ? [read.message] : []));
  if (broken.length > 0) return { ok: false, message: broken.join('; ') };
  const actions: ModelAction[] = [];
  if (calls.length === 0) {
    if (stopReason === 'refusal') {
      const why = thought.trim() === '' ? 'no reason given' : thought.trim();
      actions.push({ name: 'call_user', args: { content: `The model declined to go on: ${why}` } });
    } else if (stopReason === 'max_tokens') {
      return { ok: false, message: 'the reply was cut off at max_tokens' };
    } else if (thought.trim() === '') {
      return { ok: false, message: 'the reply has neither text nor a tool call' };
    } else {
      actions.push({ name: 'finished', args: { content: thought.trim() } });
    }
  }
  const refused: { name: string; note: string }[] = [];
  for (const read of reads) {
    if (read.kind === 'actions') actions.push(...read.actions);
    if (read.kind === 'refused') refused.push({ name: read.name, note: read.note });
  }
  return { ok: true, reply: { thought, reflection: null, actions, safety: [], refused } };
}

function callText(call: Record<string, unknown>): string {
  return `${String(call.name)} ${JSON.stringify(call.input ?? {})}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
