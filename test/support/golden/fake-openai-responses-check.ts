// What the fake Responses API rejects with a 400, as the real one does: a body that is not JSON,
// no model or input, no computer tool (or a preview tool without a valid display, environment or
// `truncation: 'auto'`), a computer_call left unanswered, a pending safety check not
// acknowledged, a reasoning item without `encrypted_content` or any item echoed with an `id`
// while `store` is false, and no screenshot at all.

type Item = Record<string, unknown>;

export interface CheckedRequest {
  body: Item & { model: string; input: Item[] };
  tool: 'computer_use_preview' | 'computer';
  /** The preview tool's declared display; null for the GA tool (the image is the display). */
  display: { width: number; height: number } | null;
  /** The newest screenshot (data URL). */
  image: string;
  /** Whether the input holds a computer_call (answered by a computer_call_output). */
  answeredCall: boolean;
  /** Whether the reply must carry reasoning as `encrypted_content`. */
  encryptedReasoning: boolean;
}

const ENVIRONMENTS = ['windows', 'mac', 'linux', 'ubuntu', 'browser'];

export function checkResponsesRequest(
  text: string,
): ({ ok: true } & CheckedRequest) | { ok: false; message: string } {
  let body: Item;
  try {
    body = JSON.parse(text) as Item;
  } catch {
    return bad('We could not parse the JSON body of your request.');
  }
  if (typeof body.model !== 'string' || body.model === '')
    return bad("Missing required parameter: 'model'.");
  if (!Array.isArray(body.input) || body.input.length === 0)
    return bad("Missing required parameter: 'input'.");
  const input = body.input as Item[];
  const tools = Array.isArray(body.tools) ? (body.tools as Item[]) : [];
  const tool = tools.find((t) => t.type === 'computer_use_preview' || t.type === 'computer');
  if (!tool) return bad('The request declares no computer tool.');
  let display: CheckedRequest['display'] = null;
  if (tool.type === 'computer_use_preview') {
    const { display_width: width, display_height: height, environment } = tool;
    if (
      !Number.isInteger(width) ||
      !Number.isInteger(height) ||
      (width as number) <= 0 ||
      (height as number) <= 0
    ) {
      return bad("Invalid 'tools[0]': display_width and display_height must be positive integers.");
    }
    if (!ENVIRONMENTS.includes(environment as string))
      return bad("Invalid 'tools[0].environment'.");
    if (body.truncation !== 'auto')
      return bad("The computer_use_preview tool requires 'truncation': 'auto'.");
    display = { width: width as number, height: height as number };
  }
  const stored = body.store !== false;
  const problem = checkItems(input, stored);
  if (problem) return bad(problem);
  const image = newestImage(input);
  if (image === null) return bad('The request holds no screenshot.');
  const include = Array.isArray(body.include) ? body.include : [];
  return {
    ok: true,
    body: body as CheckedRequest['body'],
    tool: tool.type as CheckedRequest['tool'],
    display,
    image,
    answeredCall: input.some((item) => item.type === 'computer_call'),
    encryptedReasoning: include.includes('reasoning.encrypted_content'),
  };
}

function checkItems(input: Item[], stored: boolean): string | null {
  const outputs = new Map<unknown, Item>();
  for (const item of input)
    if (item.type === 'computer_call_output') outputs.set(item.call_id, item);
  for (const item of input) {
    if (!stored && typeof item.id === 'string') {
      return `Item with id '${item.id}' not found. Items are not persisted when \`store\` is set to false.`;
    }
    if (!stored && item.type === 'reasoning' && typeof item.encrypted_content !== 'string') {
      return 'A reasoning item without encrypted_content cannot be used when `store` is false.';
    }
    if (item.type === 'computer_call') {
      const output = outputs.get(item.call_id);
      if (!output) return `No tool output found for computer call ${String(item.call_id)}.`;
      const acked = Array.isArray(output.acknowledged_safety_checks)
        ? output.acknowledged_safety_checks
        : [];
      const pending = Array.isArray(item.pending_safety_checks) ? item.pending_safety_checks : [];
      for (const check of pending as Item[]) {
        if (!(acked as Item[]).some((ack) => ack.id === check.id)) {
          return `Safety check ${String(check.id)} of computer call ${String(item.call_id)} was not acknowledged.`;
        }
      }
    }
    if (item.type === 'computer_call_output') {
      const output = item.output as Item | undefined;
      if (output?.type !== 'computer_screenshot' || typeof output.image_url !== 'string') {
        return "A computer_call_output needs output {type: 'computer_screenshot', image_url}.";
      }
      if (!input.some((call) => call.type === 'computer_call' && call.call_id === item.call_id)) {
        return `No computer call found for call_id ${String(item.call_id)}.`;
      }
    }
  }
  return null;
}

function newestImage(input: Item[]): string | null {
  let newest: string | null = null;
  for (const item of input) {
    if (item.type === 'computer_call_output') newest = (item.output as Item).image_url as string;
    if (item.role === 'user' && Array.isArray(item.content)) {
      for (const part of item.content as Item[]) {
        if (part.type === 'input_image' && typeof part.image_url === 'string')
          newest = part.image_url;
      }
    }
  }
  return newest;
}

function bad(message: string): { ok: false; message: string } {
  return { ok: false, message };
}
