// The chat-completions messages of a Qwen VL computer-use task: the Hermes system prompt (with the
// `computer_use` function), then the task as the first user turn (screenshot, instruction), each
// reply as an assistant turn with its `<tool_call>` blocks, and each later screenshot as a user
// turn answering those calls with `<tool_response>` blocks (qwen-agent `NousFnCallPrompt`). Only
// the newest `imageWindow` screenshots are sent; older turns keep their text.

import { imagesLeftOut } from './image-window.js';
import type { HistoryTurn, ProfileImage, RequestInput } from './profile-types.js';

/** What a profile keeps of a reply (`ModelTurn.raw`): the assistant text to repeat, and its calls. */
export interface QwenTurnRaw {
  content: string;
  calls: number;
}

type Part = { type: 'image_url'; image_url: { url: string } } | { type: 'text'; text: string };
type Message =
  | { role: 'system'; content: string }
  | { role: 'user'; content: Part[] }
  | { role: 'assistant'; content: string };

/** The request body: `messages` only (the tool is declared in the system prompt). */
export function buildQwenMessages(
  input: RequestInput,
  systemPrompt: (newest: ProfileImage) => string,
): { messages: Message[] } {
  const observations = input.history.filter(
    (turn): turn is Extract<HistoryTurn, { kind: 'observation' }> => turn.kind === 'observation',
  );
  const newest = observations.at(-1);
  if (!newest) throw new Error('a request needs at least one observation');
  const firstWithImage = imagesLeftOut(observations.length, input.imageWindow);
  const messages: Message[] = [{ role: 'system', content: systemPrompt(newest.image) }];
  let seen = 0;
  let lastCalls = 0;
  for (const turn of input.history) {
    if (turn.kind === 'reply') {
      const raw = turn.turn.raw as QwenTurnRaw;
      messages.push({ role: 'assistant', content: raw.content });
      lastCalls = raw.calls;
      continue;
    }
    const text = seen === 0 ? input.instruction : observationText(lastCalls, turn.notes);
    const parts: Part[] = [];
    if (seen >= firstWithImage)
      parts.push({ type: 'image_url', image_url: { url: turn.image.dataUrl } });
    parts.push({ type: 'text', text });
    messages.push({ role: 'user', content: parts });
    seen += 1;
    lastCalls = 0;
  }
  return { messages };
}

/**
 * The answer to the previous reply: one `<tool_response>` per call (the last one carries
 * Clawdie's notes), or the notes alone when the reply had no call.
 */
function observationText(calls: number, notes: readonly string[]): string {
  const said = notes.join('\n');
  if (calls === 0) return said === '' ? 'Here is the screen now.' : said;
  const responses: string[] = [];
  for (let index = 0; index < calls; index++) {
    const body = index === calls - 1 && said !== '' ? said : 'Done.';
    responses.push(`<tool_response>\n${body}\n</tool_response>`);
  }
  return responses.join('\n');
}
