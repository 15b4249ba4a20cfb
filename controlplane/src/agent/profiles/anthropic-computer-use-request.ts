// The Messages API request of the anthropic-computer-use profile: system prompt, the computer
// tool (declared at the size of the screenshots sent) plus Clawdie's own browser tools, and the
// history as alternating user/assistant messages — every `tool_use` of a reply answered by a
// `tool_result` in the next user message, the newest screenshot inside the last one (as the
// reference loop does: anthropics/anthropic-quickstarts computer_use_demo/loop.py
// `_make_api_tool_result`). Deterministic and append-only; `cache_control` at the top level lets
// the API put the cache breakpoint on the last block and move it forward each step.

import { readToolUse } from './anthropic-computer-use-actions.js';
import {
  type ComputerToolType,
  systemPrompt,
  toolDeclarations,
} from './anthropic-computer-use-tools.js';
import { keptImages } from './image-window.js';
import type { HistoryTurn, ProfileImage, RequestInput } from './profile-types.js';

type Block = Record<string, unknown>;

export function buildMessagesRequest(
  input: RequestInput,
  tool: ComputerToolType,
): Record<string, unknown> {
  const newest = input.history.findLast(
    (turn): turn is Extract<HistoryTurn, { kind: 'observation' }> => turn.kind === 'observation',
  );
  if (newest === undefined)
    throw new Error('anthropic-computer-use: the history has no screenshot');
  const kept = keptImages(input.history, input.imageWindow);
  const messages: { role: 'user' | 'assistant'; content: Block[] }[] = [];
  let previous: Block[] = [];
  let first = true;
  input.history.forEach((turn, index) => {
    if (turn.kind === 'reply') {
      previous = replyBlocks(turn.turn.raw);
      messages.push({ role: 'assistant', content: previous });
      return;
    }
    const screen = kept.has(index) ? imageBlock(turn.image) : omitted();
    const head = first ? [{ type: 'text', text: taskText(input.instruction) }] : [];
    messages.push({ role: 'user', content: [...head, ...answer(previous, screen, turn.notes)] });
    previous = [];
    first = false;
  });
  return {
    system: [{ type: 'text', text: systemPrompt(input.actionSpace) }],
    tools: toolDeclarations(tool, newest.image, input.actionSpace),
    // Before `messages`, so a request's bytes start with the previous request's (all but its end).
    cache_control: { type: 'ephemeral' },
    messages,
  };
}

/** The reply's content blocks as the next request repeats them (empty text blocks are refused). */
export function replyBlocks(raw: unknown): Block[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (block): block is Block =>
      typeof block === 'object' &&
      block !== null &&
      !((block as Block).type === 'text' && (block as Block).text === ''),
  );
}

/** The user content that answers a reply: one tool_result per tool_use, the screen in the last. */
function answer(reply: Block[], screen: Block, notes: readonly string[]): Block[] {
  const calls = reply.filter((block) => block.type === 'tool_use');
  const reads = calls.map((call) => readToolUse(String(call.name), call.input));
  const broken = reads.find((read) => read.kind === 'malformed');
  const own = new Set(reads.flatMap((read) => (read.kind === 'refused' ? [read.note] : [])));
  const extra = notes.filter((note) => !own.has(note));
  const tail = extra.length > 0 ? [screen, { type: 'text', text: extra.join('\n') }] : [screen];
  if (calls.length === 0) return tail;
  return calls.map((call, index) => {
    const read = reads[index];
    let text = 'Done.';
    if (read?.kind === 'refused') text = read.note;
    else if (read?.kind === 'malformed') text = `Not run: ${read.message}.`;
    else if (broken?.kind === 'malformed')
      text = `Not run: another call was unusable (${broken.message}).`;
    const result: Block = { type: 'tool_result', tool_use_id: call.id };
    if (read?.kind !== 'actions' || broken !== undefined) result.is_error = true;
    const body = [{ type: 'text', text }];
    result.content = index === calls.length - 1 ? [...body, ...tail] : body;
    return result;
  });
}

function imageBlock(image: ProfileImage): Block {
  return {
    type: 'image',
    source: { type: 'base64', media_type: image.mediaType, data: image.base64 },
  };
}

function omitted(): Block {
  return { type: 'text', text: '[an older screenshot, omitted]' };
}

function taskText(instruction: string): string {
  return `Task: ${instruction}\n\nThe screenshot below is the screen now.`;
}
