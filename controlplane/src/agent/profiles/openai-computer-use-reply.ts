// Reads one Responses API reply (`Response.output`: `reasoning`, `computer_call`, `message`
// items; openai SDK `Response`, `ResponseOutputItem`). A reply without a computer_call is the
// model's way of ending: its message text is the final answer.
import type { ModelAction } from '../uitars/types.js';
import { mapComputerAction } from './openai-computer-use-actions.js';
import type { ModelTurn, ParseResult, SafetySignal, WireReply } from './profile-types.js';

type Item = Record<string, unknown>;

/** The output items of a reply body, or null when it has none. */
export function outputItems(body: unknown): Item[] | null {
  if (typeof body !== 'object' || body === null) return null;
  const output = (body as { output?: unknown }).output;
  if (!Array.isArray(output)) return null;
  return output.filter((item): item is Item => typeof item === 'object' && item !== null);
}

/** The computer_call items of a reply's output. */
export function computerCalls(items: readonly Item[]): Item[] {
  return items.filter((item) => item.type === 'computer_call');
}

export function readOpenAiReply(reply: WireReply): { turn: ModelTurn; parsed: ParseResult } {
  const items = outputItems(reply.body);
  if (items === null) {
    return { turn: { raw: [], text: reply.text }, parsed: fail('the reply has no `output` array') };
  }
  const thought = [...items.flatMap(reasoningText), ...items.flatMap(messageText)].join('\n');
  const calls = computerCalls(items);
  const turn: ModelTurn = {
    raw: items,
    text: [thought, ...calls.map(describeCall)].join('\n').trim(),
  };
  return { turn, parsed: parse(items, calls, reply.body) };
}

function parse(items: Item[], calls: Item[], body: unknown): ParseResult {
  const reasoning = items.flatMap(reasoningText).join('\n');
  const message = items.flatMap(messageText).join('\n');
  const cut = incompleteReason(body);
  if (calls.length === 0) {
    if (cut !== null)
      return fail(`the reply was cut off (${cut}) before a computer_call or a message`);
    const refusal = items.flatMap(refusalText).join('\n');
    if (message.trim() !== '')
      return done(reasoning, { name: 'finished', args: { content: message } });
    if (refusal.trim() !== '')
      return done(reasoning, { name: 'call_user', args: { content: refusal } });
    return fail('the reply has neither a computer_call nor a message');
  }
  const actions: ModelAction[] = [];
  const refused: { name: string; note: string }[] = [];
  const safety: SafetySignal[] = [];
  for (const call of calls) {
    const callId = call.call_id;
    if (typeof callId !== 'string' || callId === '')
      return fail('a computer_call has no `call_id`');
    const list = Array.isArray(call.actions) ? call.actions : call.action ? [call.action] : [];
    if (list.length === 0) return fail(`computer_call ${callId} has no \`action\``);
    for (const action of list) {
      const mapped = mapComputerAction(action, callId);
      if (mapped.kind === 'malformed') return fail(`computer_call ${callId}: ${mapped.message}`);
      if (mapped.kind === 'refused') refused.push({ name: mapped.name, note: mapped.note });
      else actions.push(...mapped.actions);
    }
    safety.push(...safetyChecks(call));
  }
  const thought = [reasoning, message].filter((text) => text.trim() !== '').join('\n');
  return { ok: true, reply: { thought, reflection: null, actions, safety, refused } };
}

function done(thought: string, action: ModelAction): ParseResult {
  return {
    ok: true,
    reply: { thought, reflection: null, actions: [action], safety: [], refused: [] },
  };
}

function fail(message: string): ParseResult {
  return { ok: false, message };
}

/** `pending_safety_checks` {id, code, message} → safety signals; the whole check is echoed on approval. */
function safetyChecks(call: Item): SafetySignal[] {
  const checks = Array.isArray(call.pending_safety_checks) ? call.pending_safety_checks : [];
  return checks.flatMap((check: unknown) => {
    if (typeof check !== 'object' || check === null) return [];
    const { id, code, message } = check as Item;
    if (typeof id !== 'string') return [];
    const ack: Record<string, string> = { id };
    if (typeof code === 'string') ack.code = code;
    if (typeof message === 'string') ack.message = message;
    return [
      {
        code: typeof code === 'string' ? code : 'pending_safety_check',
        message: typeof message === 'string' ? message : `OpenAI safety check ${id}`,
        ack,
      },
    ];
  });
}

function incompleteReason(body: unknown): string | null {
  const { status, incomplete_details: details } = body as {
    status?: unknown;
    incomplete_details?: unknown;
  };
  if (status !== 'incomplete') return null;
  const reason = (details as { reason?: unknown } | null)?.reason;
  return typeof reason === 'string' ? reason : 'incomplete';
}

function reasoningText(item: Item): string[] {
  if (item.type !== 'reasoning' || !Array.isArray(item.summary)) return [];
  return item.summary.flatMap((part: { text?: unknown }) =>
    typeof part?.text === 'string' ? [part.text] : [],
  );
}

function messageText(item: Item): string[] {
  return contentParts(item, 'output_text');
}

function refusalText(item: Item): string[] {
  return contentParts(item, 'refusal');
}

function contentParts(item: Item, type: 'output_text' | 'refusal'): string[] {
  if (item.type !== 'message' || !Array.isArray(item.content)) return [];
  const key = type === 'output_text' ? 'text' : 'refusal';
  return item.content.flatMap((part: Record<string, unknown>) =>
    part?.type === type && typeof part[key] === 'string' ? [part[key] as string] : [],
  );
}

function describeCall(call: Item): string {
  const list = Array.isArray(call.actions) ? call.actions : [call.action];
  return list.map((action) => `computer_call ${JSON.stringify(action)}`).join('\n');
}
