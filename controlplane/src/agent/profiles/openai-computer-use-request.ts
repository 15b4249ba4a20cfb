// Builds the Responses API request of one step. The whole history is resent every step (stateless:
// `store: false`, reasoning carried as `encrypted_content`), never chained by
// `previous_response_id`: docs/models.md "openai-computer-use" gives the reasons. Output items
// are echoed without their `id` (items are not persisted under `store: false`), the way OpenAI's
// own stateless client does it (openai/codex `ResponseItem`, `id` skip_serializing).

import { imagesLeftOut } from './image-window.js';
import { computerCalls } from './openai-computer-use-reply.js';
import type { HistoryTurn, ProfileImage, RequestInput, SafetySignal } from './profile-types.js';

export type OpenAiComputerTool = 'computer_use_preview' | 'computer';

type Item = Record<string, unknown>;
type Observation = Extract<HistoryTurn, { kind: 'observation' }>;

export function buildOpenAiRequest(
  input: RequestInput,
  tool: OpenAiComputerTool,
): Record<string, unknown> {
  const observations = input.history.filter((turn) => turn.kind === 'observation');
  const newest = observations.at(-1);
  if (newest === undefined) throw new Error('a request needs at least one observation');
  const firstShown = imagesLeftOut(observations.length, input.imageWindow);
  const items: unknown[] = [];
  let seen = 0;
  let lastCalls: Item[] = [];
  input.history.forEach((turn, index) => {
    if (turn.kind === 'reply') {
      const full = seen >= firstShown || index === input.history.length - 1;
      const raw = Array.isArray(turn.turn.raw) ? (turn.turn.raw as Item[]) : [];
      lastCalls = full ? computerCalls(raw) : [];
      if (full) items.push(...echo(raw));
      else if (turn.turn.text !== '') items.push({ role: 'assistant', content: turn.turn.text });
      return;
    }
    const shown = seen >= firstShown;
    items.push(
      ...observationItems(turn, seen === 0 ? input.instruction : null, shown, lastCalls, tool),
    );
    lastCalls = [];
    seen += 1;
  });
  const body: Record<string, unknown> = {
    instructions: instructions(input.actionSpace),
    tools: [toolDeclaration(tool, newest.image)],
    reasoning: { summary: tool === 'computer' ? 'auto' : 'concise' },
    truncation: 'auto',
    store: false,
    include: ['reasoning.encrypted_content'],
  };
  body.input = items;
  return body;
}

function toolDeclaration(tool: OpenAiComputerTool, image: ProfileImage): Item {
  if (tool === 'computer') return { type: 'computer' };
  return {
    type: 'computer_use_preview',
    display_width: image.width,
    display_height: image.height,
    environment: 'browser',
  };
}

function instructions(space: RequestInput['actionSpace']): string {
  const surface = space === 'browser' ? 'a web browser' : 'a computer desktop';
  return [
    `You operate ${surface} for the user through the computer tool.`,
    'Carry out the task yourself; do not ask for confirmation.',
    'When the task is done, or cannot be done, stop calling the computer tool and reply with a message that states the result.',
  ].join(' ');
}

/** A reply's output items as input items: without `id`, and without a trailing lone reasoning item. */
function echo(raw: Item[]): Item[] {
  const lastOther = raw.findLastIndex((item) => item.type !== 'reasoning');
  return raw
    .filter((item, index) => item.type !== 'reasoning' || index < lastOther)
    .map(({ id: _id, ...rest }) => rest);
}

function observationItems(
  turn: Observation,
  instruction: string | null,
  shown: boolean,
  calls: Item[],
  tool: OpenAiComputerTool,
): Item[] {
  const notes = turn.notes.map((text) => ({ type: 'input_text', text }));
  const image = { type: 'input_image', image_url: turn.image.dataUrl, ...detail(tool) };
  if (instruction !== null) {
    const task = { type: 'input_text', text: instruction };
    return [{ role: 'user', content: [task, ...(shown ? [image] : []), ...notes] }];
  }
  if (!shown) return notes.length > 0 ? [{ role: 'user', content: notes }] : [];
  if (calls.length === 0) return [{ role: 'user', content: [...notes, image] }];
  const outputs = calls.map((call) => {
    const output: Item = {
      type: 'computer_call_output',
      call_id: call.call_id,
      output: { type: 'computer_screenshot', image_url: turn.image.dataUrl, ...detail(tool) },
    };
    const acks = acknowledgedFor(call, calls, turn.acknowledged);
    if (acks.length > 0) output.acknowledged_safety_checks = acks;
    return output;
  });
  return notes.length > 0 ? [...outputs, { role: 'user', content: notes }] : outputs;
}

/** The GA tool reads the screenshot at its own size (no server-side downscale) with `original`. */
function detail(tool: OpenAiComputerTool): Item {
  return tool === 'computer' ? { detail: 'original' } : {};
}

/** The approved checks that belong to this call (by pending id); unmatched ones go on the last call. */
function acknowledgedFor(
  call: Item,
  calls: Item[],
  acknowledged: readonly SafetySignal[],
): unknown[] {
  const owner = (id: string) =>
    calls.find((candidate) => pendingIds(candidate).includes(id)) ?? calls.at(-1);
  return acknowledged
    .map((signal) => signal.ack as { id?: unknown } | undefined)
    .filter((ack): ack is { id: string } => typeof ack?.id === 'string' && owner(ack.id) === call);
}

function pendingIds(call: Item): unknown[] {
  const pending = Array.isArray(call.pending_safety_checks) ? call.pending_safety_checks : [];
  return pending.map((check: { id?: unknown } | null) => check?.id);
}
