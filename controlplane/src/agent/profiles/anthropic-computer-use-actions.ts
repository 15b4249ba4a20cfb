// One `tool_use` block of a Claude reply → Clawdie actions (the vocabulary of
// uitars/action-planners.ts), a refusal with a note for the model, or a malformed call.
// The computer tool's inputs: @ai-sdk/anthropic `src/tool/computer_20251124.ts` (action enum,
// coordinate, start_coordinate, text, scroll_direction, scroll_amount, duration, region).
import type { ModelAction, Position } from '../uitars/types.js';
import { xdotoolChords } from './anthropic-xdotool-keys.js';

/** CSS pixels one scroll-wheel click scrolls (`scroll_amount` counts clicks). */
export const SCROLL_PX_PER_CLICK = 100;

export type ToolUseRead =
  | { kind: 'actions'; actions: ModelAction[] }
  | { kind: 'refused'; name: string; note: string }
  | { kind: 'malformed'; message: string };

/** Actions Clawdie cannot do, each with the note the model gets instead. */
const REFUSED: Readonly<Record<string, string>> = {
  triple_click:
    'triple_click is not available here: use double_click, or click and press ctrl+a to select a whole field.',
  middle_click: 'middle_click is not available here: use left_click (or ctrl+left_click).',
  hold_key: 'hold_key is not available here: use key for a key or a chord.',
  left_mouse_down:
    'left_mouse_down is not available here: use left_click_drag with start_coordinate and coordinate.',
  left_mouse_up:
    'left_mouse_up is not available here: use left_click_drag with start_coordinate and coordinate.',
  zoom: 'zoom is not available here: the screenshot is already at full resolution.',
  cursor_position:
    'cursor_position is not available here: Clawdie does not track the pointer; give every pointer action its coordinate.',
};

const DIRECTIONS = new Set(['up', 'down', 'left', 'right']);

/** Reads one `tool_use` block's `name` and `input`. */
export function readToolUse(name: string, input: unknown): ToolUseRead {
  if (!isRecord(input)) return malformed(`${name}: input is not an object`);
  if (name === 'navigate') {
    const url = typeof input.url === 'string' ? input.url.trim() : '';
    if (url === '') return malformed('navigate needs input.url');
    return one({ name: 'navigate', args: { content: url, url } });
  }
  if (name === 'go_back') return one({ name: 'navigate_back', args: {} });
  if (name === 'call_user') {
    const reason = typeof input.reason === 'string' ? input.reason : '';
    return one({ name: 'call_user', args: { content: reason, reason } });
  }
  if (name !== 'computer') {
    return { kind: 'refused', name, note: `There is no tool named ${name}.` };
  }
  return readComputer(input);
}

function readComputer(input: Record<string, unknown>): ToolUseRead {
  const action = input.action;
  if (typeof action !== 'string') return malformed('computer: input.action is missing');
  const refusal = REFUSED[action];
  if (refusal !== undefined) return { kind: 'refused', name: action, note: refusal };
  const raw: Record<string, string> = { action };
  for (const key of ['coordinate', 'start_coordinate', 'text', 'scroll_direction']) {
    if (input[key] !== undefined) raw[key] = stringify(input[key]);
  }
  if (input.scroll_amount !== undefined) raw.scroll_amount = String(input.scroll_amount);
  if (input.duration !== undefined) raw.duration = String(input.duration);
  switch (action) {
    case 'key':
      return keys(input.text, raw);
    case 'type':
      if (typeof input.text !== 'string') return malformed('type needs input.text');
      return one({ name: 'type', args: { ...raw, content: input.text } });
    case 'mouse_move':
      return pointer('hover', input, raw);
    case 'left_click':
      return pointer('click', input, raw);
    case 'right_click':
      return pointer('right_single', input, raw);
    case 'double_click':
      return pointer('left_double', input, raw);
    case 'left_click_drag':
      return drag(input, raw);
    case 'scroll':
      return scroll(input, raw);
    case 'wait':
      return one({ name: 'wait', args: raw });
    case 'screenshot':
      return one({ name: 'screenshot', args: raw });
    default:
      return { kind: 'refused', name: action, note: `The computer tool has no action ${action}.` };
  }
}

function keys(text: unknown, raw: Record<string, string>): ToolUseRead {
  if (typeof text !== 'string' || text.trim() === '') return malformed('key needs input.text');
  const chords = xdotoolChords(text);
  if (chords === null) return malformed(`key: cannot read the keys '${text}'`);
  return {
    kind: 'actions',
    actions: chords.map((chord) => ({ name: 'hotkey', args: { ...raw, key: chord.join(' ') } })),
  };
}

function pointer(name: string, input: Record<string, unknown>, raw: Record<string, string>) {
  const start = point(input.coordinate);
  if (start === null) return missingPoint(raw.action ?? name, 'coordinate');
  return withModifiers({ name, args: raw, start }, input.text, raw);
}

function drag(input: Record<string, unknown>, raw: Record<string, string>): ToolUseRead {
  const start = point(input.start_coordinate);
  if (start === null) return missingPoint('left_click_drag', 'start_coordinate');
  const end = point(input.coordinate);
  if (end === null) return missingPoint('left_click_drag', 'coordinate');
  return withModifiers({ name: 'drag', args: raw, start, end }, input.text, raw);
}

function scroll(input: Record<string, unknown>, raw: Record<string, string>): ToolUseRead {
  const direction = input.scroll_direction;
  if (typeof direction !== 'string' || !DIRECTIONS.has(direction)) {
    return malformed("scroll needs scroll_direction 'up', 'down', 'left' or 'right'");
  }
  const clicks = input.scroll_amount ?? 3;
  if (typeof clicks !== 'number' || !Number.isFinite(clicks) || clicks <= 0) {
    return malformed('scroll_amount must be a positive number of wheel clicks');
  }
  const args = { ...raw, direction, amount: String(clicks * SCROLL_PX_PER_CLICK) };
  const action: ModelAction = { name: 'scroll', args };
  if (input.coordinate !== undefined) {
    const start = point(input.coordinate);
    if (start === null) return missingPoint('scroll', 'coordinate');
    action.start = start;
  }
  return withModifiers(action, input.text, raw);
}

/**
 * A click, drag or scroll with `text` holds those keys while it runs: each key is pressed
 * (keydown), the action runs, and the keys are released in reverse — the browser's mouse events
 * carry the held modifiers, as xdotool's `keydown … click … keyup` does in computer.py.
 */
function withModifiers(action: ModelAction, text: unknown, raw: Record<string, string>) {
  if (text === undefined || text === null || text === '') return one(action);
  if (typeof text !== 'string') return malformed(`${raw.action}: text must be a string of keys`);
  const chords = xdotoolChords(text);
  if (chords === null || chords.length !== 1) {
    return malformed(`${raw.action}: text '${text}' is not one key combination to hold`);
  }
  const held = chords[0] as string[];
  return {
    kind: 'actions' as const,
    actions: [
      ...held.map((key) => ({ name: 'press', args: { key } })),
      action,
      ...[...held].reverse().map((key) => ({ name: 'release', args: { key } })),
    ],
  };
}

function point(value: unknown): Position | null {
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [x, y] = value;
  if (typeof x !== 'number' || typeof y !== 'number') return null;
  if (!Number.isFinite(x) || !Number.isFinite(y)) return null;
  return { x, y };
}

/** A pointer action without its point would act wherever the pointer is: not known here. */
function missingPoint(action: string, key: string): ToolUseRead {
  return {
    kind: 'refused',
    name: action,
    note: `${action} needs ${key}: [x, y] in screenshot pixels (Clawdie does not track the pointer).`,
  };
}

function one(action: ModelAction): ToolUseRead {
  return { kind: 'actions', actions: [action] };
}

function malformed(message: string): ToolUseRead {
  return { kind: 'malformed', message };
}

function stringify(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
