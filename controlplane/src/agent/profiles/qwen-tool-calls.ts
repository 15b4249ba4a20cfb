// Reads the tool calls of a Qwen VL reply in both forms a server sends them: `message.tool_calls`
// (a server that parses them out, e.g. vLLM `--enable-auto-tool-choice --tool-call-parser
// hermes` when the request declares `tools`) and inline `<tool_call>{json}</tool_call>` blocks in
// the text (a server without a tool parser, or a request without `tools` — the Hermes format of
// qwen-agent `NousFnCallPrompt`). The thought is the text outside the blocks.
import type { WireReply } from './profile-types.js';
import { toolCallText } from './qwen-hermes-prompt.js';

/** One call, its arguments parsed. */
export interface QwenToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export type ToolCallRead =
  | {
      ok: true;
      thought: string;
      calls: QwenToolCall[];
      /** The assistant text to repeat in the next request (the calls as inline blocks). */
      content: string;
    }
  | { ok: false; message: string; content: string };

const BLOCK = /<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/g;

/** The calls of `reply`, its thought, and the text the history keeps. */
export function readQwenToolCalls(reply: WireReply): ToolCallRead {
  const structured = structuredCalls(reply.body);
  if (structured.length > 0) {
    const thought = reply.text.trim();
    const parsed = structured.map((call) => ({
      name: call.name,
      args: parseArguments(call.arguments),
    }));
    const blocks = parsed.map((call) =>
      toolCallText(call.name, typeof call.args === 'string' ? {} : call.args),
    );
    const content = [thought, ...blocks].filter((part) => part !== '').join('\n');
    const bad = parsed.find((call) => typeof call.args === 'string');
    if (bad) return { ok: false, message: `the arguments of ${bad.name} ${bad.args}`, content };
    const calls = parsed.map((call) => ({
      name: call.name,
      arguments: call.args as Record<string, unknown>,
    }));
    return { ok: true, thought, calls, content };
  }
  const content = reply.text;
  const calls: QwenToolCall[] = [];
  for (const match of content.matchAll(BLOCK)) {
    const call = parseInlineCall(match[1] ?? '');
    if (typeof call === 'string') return { ok: false, message: call, content };
    calls.push(call);
  }
  const thought = content.replace(BLOCK, '').trim();
  return { ok: true, thought, calls, content };
}

interface RawCall {
  name: string;
  arguments: unknown;
}

/** `choices[0].message.tool_calls` of a chat completion (streams arrive reassembled). */
function structuredCalls(body: unknown): RawCall[] {
  const message = (body as { choices?: { message?: { tool_calls?: unknown } }[] } | null)
    ?.choices?.[0]?.message;
  const calls = message?.tool_calls;
  if (!Array.isArray(calls)) return [];
  return calls.flatMap((call: { function?: { name?: unknown; arguments?: unknown } }) =>
    typeof call?.function?.name === 'string'
      ? [{ name: call.function.name, arguments: call.function.arguments }]
      : [],
  );
}

/** Arguments as a JSON text (OpenAI) or an object (some servers); a string says what is wrong. */
function parseArguments(value: unknown): Record<string, unknown> | string {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return `are not JSON: ${value.slice(0, 200)}`;
    }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return 'are not a JSON object';
  return parsed as Record<string, unknown>;
}

function parseInlineCall(inner: string): QwenToolCall | string {
  const text = inner.trim();
  let parsed: { name?: unknown; arguments?: unknown };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    return `a <tool_call> block is not JSON: ${text.slice(0, 200)}`;
  }
  if (typeof parsed?.name !== 'string')
    return 'a <tool_call> block has no "name" (write {"name": "computer_use", "arguments": {…}})';
  const args = parseArguments(parsed.arguments ?? {});
  if (typeof args === 'string') return `the arguments of ${parsed.name} ${args}`;
  return { name: parsed.name, arguments: args };
}
