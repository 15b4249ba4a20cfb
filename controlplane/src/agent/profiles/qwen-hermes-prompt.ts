// The Hermes-style tool prompt of the Qwen VL models (qwen-agent `NousFnCallPrompt`, the template
// the Qwen2.5-VL and Qwen3-VL computer-use cookbooks use): "You are a helpful assistant." plus a
// `# Tools` section that lists the `computer_use` function inside `<tools></tools>`, serialised
// the way Python's `json.dumps(..., ensure_ascii=False)` does (", " and ": " separators), and asks
// for `<tool_call>{json}</tool_call>` replies. docs/models/qwen2.5-vl.md, "Request".
import type { Size } from '../uitars/types.js';

/** A function declaration as qwen-agent's `BaseTool.function` writes it. */
export interface ToolFunction {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** `json.dumps(value, ensure_ascii=False)` of Python: JSON with ", " and ": " separators. */
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}: ${pythonJson(item)}`).join(', ')}}`;
  }
  return JSON.stringify(value);
}

/** qwen-agent `FN_CALL_TEMPLATE` after the default system text (`NousFnCallPrompt`). */
export function hermesSystemPrompt(tool: ToolFunction): string {
  return [
    'You are a helpful assistant.',
    '',
    '# Tools',
    '',
    'You may call one or more functions to assist with the user query.',
    '',
    'You are provided with function signatures within <tools></tools> XML tags:',
    '<tools>',
    pythonJson({ type: 'function', function: tool }),
    '</tools>',
    '',
    'For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:',
    '<tool_call>',
    '{"name": <function-name>, "arguments": <args-json-object>}',
    '</tool_call>',
  ].join('\n');
}

/** One `tool_call` block as `NousFnCallPrompt` renders an assistant's function call. */
export function toolCallText(name: string, args: Record<string, unknown>): string {
  return `<tool_call>\n${pythonJson({ name, arguments: args })}\n</tool_call>`;
}

/** Which cookbook the `computer_use` declaration follows. */
export type ComputerUseVariant = 'qwen2.5' | 'qwen3';

type ActionDocs = readonly (readonly [name: string, doc: string])[];

// Qwen2.5-VL cookbooks/utils/agent_function_call.py `ComputerUse` (middle_click left out: Clawdie
// cannot do it, so it is not offered).
const QWEN25_ACTIONS: ActionDocs = [
  [
    'key',
    'Performs key down presses on the arguments passed in order, then performs key releases in reverse order.',
  ],
  ['type', 'Type a string of text on the keyboard.'],
  ['mouse_move', 'Move the cursor to a specified (x, y) pixel coordinate on the screen.'],
  ['left_click', 'Click the left mouse button.'],
  [
    'left_click_drag',
    'Click and drag the cursor to a specified (x, y) pixel coordinate on the screen.',
  ],
  ['right_click', 'Click the right mouse button.'],
  ['double_click', 'Double-click the left mouse button.'],
  ['scroll', 'Performs a scroll of the mouse scroll wheel.'],
  ['wait', 'Wait specified seconds for the change to happen.'],
  ['terminate', 'Terminate the current task and report its completion status.'],
];

// Qwen3-VL cookbooks/utils/agent_function_call.py `ComputerUse` (middle_click and triple_click
// left out).
const QWEN3_ACTIONS: ActionDocs = [
  [
    'key',
    'Performs key down presses on the arguments passed in order, then performs key releases in reverse order.',
  ],
  ['type', 'Type a string of text on the keyboard.'],
  ['mouse_move', 'Move the cursor to a specified (x, y) pixel coordinate on the screen.'],
  [
    'left_click',
    'Click the left mouse button at a specified (x, y) pixel coordinate on the screen.',
  ],
  [
    'left_click_drag',
    'Click and drag the cursor to a specified (x, y) pixel coordinate on the screen.',
  ],
  [
    'right_click',
    'Click the right mouse button at a specified (x, y) pixel coordinate on the screen.',
  ],
  [
    'double_click',
    'Double-click the left mouse button at a specified (x, y) pixel coordinate on the screen.',
  ],
  ['scroll', 'Performs a scroll of the mouse scroll wheel.'],
  ['hscroll', 'Performs a horizontal scroll (mapped to regular scroll).'],
  ['wait', 'Wait specified seconds for the change to happen.'],
  ['terminate', 'Terminate the current task and report its completion status.'],
  ['answer', 'Answer a question.'],
];

// microsoft/fara src/fara/_prompts.py `FaraComputerUse`: the browser actions Clawdie can do.
const BROWSER_ACTIONS: ActionDocs = [
  ['visit_url', 'Visit a specified URL.'],
  ['history_back', 'Go back to the previous page in the browser history.'],
];

const DESCRIPTION = (display: Size, lastLine: string) =>
  [
    'Use a mouse and keyboard to interact with a computer, and take screenshots.',
    '* This is an interface to a desktop GUI. You do not have access to a terminal or applications menu. You must click on desktop icons to start applications.',
    "* Some applications may take time to start or process actions, so you may need to wait and take successive screenshots to see the results of your actions. E.g. if you click on Firefox and a window doesn't open, try wait and taking another screenshot.",
    `* The screen's resolution is ${display.width}x${display.height}.`,
    '* Whenever you intend to move the cursor to click on an element like an icon, you should consult a screenshot to determine the coordinates of the element before moving the cursor.',
    '* If you tried clicking on a program or link but it failed to load, even after waiting, try adjusting your cursor position so that the tip of the cursor visually falls on the element that you want to click.',
    lastLine,
  ].join('\n');

/**
 * The `computer_use` function of the cookbook `variant`, stating `display` as the screen's
 * resolution; `browser` adds Fara's `visit_url` and `history_back`.
 */
export function computerUseTool(
  variant: ComputerUseVariant,
  display: Size,
  browser: boolean,
): ToolFunction {
  const qwen3 = variant === 'qwen3';
  const actions = [
    ...(qwen3 ? QWEN3_ACTIONS : QWEN25_ACTIONS),
    ...(browser ? BROWSER_ACTIONS : []),
  ];
  const lastLine = `* Make sure to click any buttons, links, icons, etc with the cursor tip in the center of the element. Don't click boxes on their edges${qwen3 ? '.' : ' unless asked.'}`;
  const coordinate = qwen3
    ? '(x, y): The x (pixels from the left edge) and y (pixels from the top edge) coordinates to move the mouse to.'
    : '(x, y): The x (pixels from the left edge) and y (pixels from the top edge) coordinates to move the mouse to. Required only by `action=mouse_move` and `action=left_click_drag`.';
  const properties: Record<string, unknown> = {
    action: {
      description: `The action to perform. The available actions are:\n${actions.map(([name, doc]) => `* \`${name}\`: ${doc}`).join('\n')}`,
      enum: actions.map(([name]) => name),
      type: 'string',
    },
    keys: { description: 'Required only by `action=key`.', type: 'array' },
    text: {
      description: qwen3
        ? 'Required only by `action=type` and `action=answer`.'
        : 'Required only by `action=type`.',
      type: 'string',
    },
    coordinate: { description: coordinate, type: 'array' },
    pixels: {
      description: `The amount of scrolling to perform. Positive values scroll up, negative values scroll down. Required only by \`action=scroll\`${qwen3 ? ' and `action=hscroll`' : ''}.`,
      type: 'number',
    },
    url: browser
      ? { description: 'The URL to visit. Required only by `action=visit_url`.', type: 'string' }
      : undefined,
    time: { description: 'The seconds to wait. Required only by `action=wait`.', type: 'number' },
    status: {
      description: 'The status of the task. Required only by `action=terminate`.',
      type: 'string',
      enum: ['success', 'failure'],
    },
  };
  return {
    name: 'computer_use',
    description: DESCRIPTION(display, lastLine),
    parameters: { properties, required: ['action'], type: 'object' },
  };
}
