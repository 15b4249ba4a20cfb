// The golden fake of the Qwen VL profiles: an OpenAI-compatible chat-completions server (the fake
// of uitars-test-model-server.ts) that answers the way Qwen2.5-VL / Qwen3-VL with the cookbook's
// `computer_use` tool does. It reads the tool declaration from the system prompt (the Hermes
// `<tools>` block, where the cookbooks put it), finds the marker in the newest image and answers
// `left_click` on its centre — in pixels of the declared screen for `qwen2.5` (the marker in image
// pixels × declared / image size), relative 0–1000 for `qwen3` — as `message.tool_calls` (vLLM's
// hermes parser) or, with `inline`, as `<tool_call>` text. Once the click was answered with a
// `<tool_response>`, it ends: `terminate` success (qwen2.5), `answer` then `terminate` (qwen3).

import type { ToolCallOut } from '../chat-server-writers.js';
import { imageUrls, messageText, type ReceivedMessage } from '../uitars-test-model-messages.js';
import { type ModelOutcome, startChatServer } from '../uitars-test-model-server.js';
import { findMarker } from './find-marker.js';
import type { GoldenRequest, GoldenServer, GoldenServerOptions } from './golden-types.js';

export interface ChatToolsGoldenOptions extends GoldenServerOptions {
  convention: 'qwen2.5' | 'qwen3';
  /** Answer with inline `<tool_call>` text in `content` (a server without a tool parser). */
  inline?: boolean;
  /** qwen3 only: end with `answer` + `terminate` (default) or `terminate` alone. */
  ending?: 'answer' | 'terminate';
}

interface Declared {
  display: { width: number; height: number };
}

export async function startChatToolsGolden(options: ChatToolsGoldenOptions): Promise<GoldenServer> {
  const requests: GoldenRequest[] = [];
  let calls = 0;
  const server = await startChatServer({
    modelName:
      options.convention === 'qwen3' ? 'Qwen/Qwen3-VL-8B-Instruct' : 'Qwen/Qwen2.5-VL-7B-Instruct',
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    ...(options.poseAs === undefined ? {} : { poseAs: options.poseAs }),
    delayMs: () => 0,
    async respond(record, request) {
      const messages = request.messages;
      const declared = readDeclaration(messages);
      if (typeof declared === 'string') return bad(declared);
      const url = imageUrls(messages).at(-1);
      if (url === undefined) return bad('the request has no image');
      const unanswered = unansweredCall(messages);
      if (unanswered) return bad(unanswered);
      const found = await findMarker(url, options.codec);
      const golden: GoldenRequest = {
        path: record.path,
        body: record.body,
        bodyBytes: record.bodyBytes,
        image: { width: found.width, height: found.height, format: found.format },
        marker: found.centre,
        answered: null,
      };
      requests.push(golden);
      const replied = messages.some((message) => message.role === 'assistant');
      if (replied) return reply('The marker was clicked; the task is done.', ending(options));
      if (!found.centre) return reply('I cannot see the marker.', [{ action: 'wait', time: 1 }]);
      const point =
        options.convention === 'qwen3'
          ? {
              x: Math.round((found.centre.x / found.width) * 1000),
              y: Math.round((found.centre.y / found.height) * 1000),
            }
          : {
              x: Math.round((found.centre.x * declared.display.width) / found.width),
              y: Math.round((found.centre.y * declared.display.height) / found.height),
            };
      golden.answered = point;
      return reply('The magenta square is the target; I click its centre.', [
        { action: 'left_click', coordinate: [point.x, point.y] },
      ]);
    },
  });

  function reply(thought: string, actions: Record<string, unknown>[]): ModelOutcome {
    const toolCalls: ToolCallOut[] = actions.map((args, index) => ({
      id: `chatcmpl-tool-${calls + index + 1}`,
      name: 'computer_use',
      arguments: JSON.stringify(args),
    }));
    calls += toolCalls.length;
    if (!options.inline) return { kind: 'reply', content: thought, toolCalls };
    const blocks = toolCalls.map(
      (call) =>
        `<tool_call>\n{"name": "${call.name}", "arguments": ${call.arguments}}\n</tool_call>`,
    );
    return { kind: 'reply', content: [thought, ...blocks].join('\n') };
  }

  return {
    url: server.baseUrl,
    requests,
    close: () => server.close(),
  };
}

const bad = (message: string): ModelOutcome => ({ kind: 'error', status: 400, message });

function ending(options: ChatToolsGoldenOptions): Record<string, unknown>[] {
  const terminate = { action: 'terminate', status: 'success' };
  if (options.convention === 'qwen3' && options.ending !== 'terminate')
    return [{ action: 'answer', text: 'clicked' }, terminate];
  return [terminate];
}

/** The `computer_use` function in the system prompt's `<tools>` block, and the screen it states. */
function readDeclaration(messages: readonly ReceivedMessage[]): Declared | string {
  const system = messages[0];
  if (system?.role !== 'system') return 'the first message must be the system prompt';
  const text = messageText(system);
  const block = /<tools>\n([\s\S]*?)\n<\/tools>/.exec(text)?.[1];
  if (!block) return 'the system prompt declares no <tools>';
  let tool: { function?: { name?: string; description?: string; parameters?: unknown } };
  try {
    tool = JSON.parse(block.split('\n')[0] ?? '') as typeof tool;
  } catch {
    return 'the <tools> block is not JSON';
  }
  if (tool.function?.name !== 'computer_use') return 'no computer_use function is declared';
  const size = /The screen's resolution is (\d+)x(\d+)\./.exec(tool.function.description ?? '');
  if (!size) return 'computer_use does not state the screen resolution';
  return { display: { width: Number(size[1]), height: Number(size[2]) } };
}

/** Why the request leaves a `<tool_call>` of an earlier reply unanswered, or null. */
function unansweredCall(messages: readonly ReceivedMessage[]): string | null {
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    if (message?.role !== 'assistant' || !messageText(message).includes('<tool_call>')) continue;
    const next = messages[index + 1];
    if (next?.role !== 'user' || !messageText(next).includes('<tool_response>'))
      return `the tool call of message ${index} has no <tool_response> after it`;
  }
  return null;
}
