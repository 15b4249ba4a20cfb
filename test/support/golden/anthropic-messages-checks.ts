// What the fake Messages API checks in a request body, the way the real API refuses a malformed
// one with 400 invalid_request_error (platform.claude.com/docs/en/api/messages; tool_result rules
// from docs/en/agents-and-tools/tool-use/implement-tool-use): model, max_tokens, messages that
// start with a user turn, every assistant tool_use answered by a tool_result in the next user
// message (tool results first), images as base64 blocks, and exactly one computer tool with its
// display size. Returns the newest image and the declared display.

export interface MessagesCheck {
  ok: true;
  image: { data: string; mediaType: string };
  display: { type: string; width: number; height: number };
}

type Check = MessagesCheck | { ok: false; message: string };
type Block = Record<string, unknown>;

const MEDIA_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

export function newestImage(body: unknown): Check {
  if (!isRecord(body)) return fail('the body is not an object');
  if (typeof body.model !== 'string' || body.model === '') return fail('model: field required');
  if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1) {
    return fail('max_tokens: must be a positive integer');
  }
  const display = computerTool(body.tools);
  if ('message' in display) return fail(display.message);
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0)
    return fail('messages: at least one message is required');
  let open: string[] = [];
  let image: MessagesCheck['image'] | null = null;
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message)) return fail(`messages.${index}: not an object`);
    if (index === 0 && message.role !== 'user')
      return fail('messages: the first message must use the "user" role');
    const blocks = typeof message.content === 'string' ? [] : message.content;
    if (!Array.isArray(blocks))
      return fail(`messages.${index}.content: must be a string or a list`);
    if (message.role === 'assistant') {
      if (open.length > 0)
        return fail(`messages.${index}: tool_use ids without tool_result: ${open.join(', ')}`);
      open = blocks
        .filter((block) => isRecord(block) && block.type === 'tool_use')
        .map((block) => String((block as Block).id));
      continue;
    }
    if (message.role !== 'user')
      return fail(`messages.${index}.role: must be "user" or "assistant"`);
    const results = blocks.filter(
      (block) => isRecord(block) && block.type === 'tool_result',
    ) as Block[];
    const leading = blocks
      .slice(0, results.length)
      .every((block) => isRecord(block) && block.type === 'tool_result');
    if (!leading)
      return fail(`messages.${index}: tool_result blocks must come first in the content`);
    const answered = results.map((block) => String(block.tool_use_id));
    const missing = open.filter((id) => !answered.includes(id));
    const unknown = answered.filter((id) => !open.includes(id));
    if (missing.length > 0)
      return fail(`messages.${index}: tool_use ids without tool_result: ${missing.join(', ')}`);
    if (unknown.length > 0)
      return fail(`messages.${index}: tool_result for unknown tool_use ids: ${unknown.join(', ')}`);
    open = [];
    for (const block of blocks) {
      const nested =
        isRecord(block) && block.type === 'tool_result' && Array.isArray(block.content)
          ? block.content
          : [block];
      for (const inner of nested) {
        const read = readBlock(inner, index);
        if (typeof read === 'string') return fail(read);
        if (read !== null) image = read;
      }
    }
  }
  if (open.length > 0) return fail(`tool_use ids without tool_result: ${open.join(', ')}`);
  if (image === null) return fail('the request has no image');
  return { ok: true, image, display };
}

function readBlock(block: unknown, index: number): MessagesCheck['image'] | string | null {
  if (!isRecord(block)) return `messages.${index}: a content block is not an object`;
  if (block.type === 'text') {
    return typeof block.text === 'string' && block.text !== ''
      ? null
      : `messages.${index}: text content blocks must be non-empty`;
  }
  if (block.type !== 'image') return null;
  const source = isRecord(block.source) ? block.source : {};
  if (source.type !== 'base64' || typeof source.data !== 'string' || source.data === '') {
    return `messages.${index}: image.source must be {type: "base64", media_type, data}`;
  }
  if (!MEDIA_TYPES.has(String(source.media_type)))
    return `messages.${index}: image.source.media_type is not supported`;
  return { data: source.data, mediaType: String(source.media_type) };
}

function computerTool(tools: unknown): MessagesCheck['display'] | { message: string } {
  if (!Array.isArray(tools)) return { message: 'tools: the computer tool is not declared' };
  const computers = tools.filter(
    (tool) => isRecord(tool) && String(tool.type).startsWith('computer_'),
  );
  if (computers.length !== 1) return { message: 'tools: declare exactly one computer tool' };
  const tool = computers[0] as Block;
  if (tool.name !== 'computer') return { message: 'tools.computer: name must be "computer"' };
  const width = tool.display_width_px;
  const height = tool.display_height_px;
  if (
    !Number.isInteger(width) ||
    !Number.isInteger(height) ||
    (width as number) < 1 ||
    (height as number) < 1
  ) {
    return {
      message: 'tools.computer: display_width_px and display_height_px must be positive integers',
    };
  }
  for (const other of tools) {
    if (other === tool) continue;
    if (!isRecord(other) || typeof other.name !== 'string' || !isRecord(other.input_schema)) {
      return { message: 'tools: a custom tool needs a name and an input_schema' };
    }
  }
  return { type: String(tool.type), width: width as number, height: height as number };
}

function fail(message: string): { ok: false; message: string } {
  return { ok: false, message };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
