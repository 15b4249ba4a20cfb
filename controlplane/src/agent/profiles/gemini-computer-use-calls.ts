// The Gemini computer-use function calls (the set of gemini-2.5-computer-use-preview-10-2025,
// gemini-3-flash-preview and gemini-3.1-pro-preview: google-gemini/computer-use-preview agent.py,
// LEGACY_PREDEFINED_COMPUTER_USE_FUNCTIONS) mapped onto Clawdie's action vocabulary
// (action-planners.ts). Points stay on Gemini's 0–999 grid (the profile's relative space, divisor
// 1000). One call becomes at most MAX_ACTIONS_PER_CALL actions (type_text_at: click, select all,
// delete, type). docs/models/gemini-computer-use.md.
import type { ModelAction, Position } from '../uitars/types.js';

/** Where `search` goes: the reference implementation's default search engine (playwright.py). */
export const GEMINI_SEARCH_URL = 'https://www.google.com/';

/** The most actions one function call becomes (type_text_at with clearing and text). */
export const MAX_ACTIONS_PER_CALL = 4;

/** The predefined browser functions of the profile's models, in the reference's order. */
export const GEMINI_FUNCTIONS = [
  'open_web_browser',
  'click_at',
  'hover_at',
  'type_text_at',
  'scroll_document',
  'scroll_at',
  'wait_5_seconds',
  'go_back',
  'go_forward',
  'search',
  'navigate',
  'key_combination',
  'drag_and_drop',
] as const;

export type CallOutcome =
  | { kind: 'actions'; actions: ModelAction[] }
  | { kind: 'refused'; note: string }
  | { kind: 'invalid'; message: string };

type Args = Record<string, unknown>;
type Mapper = (args: Args, raw: Record<string, string>) => CallOutcome;

const DIRECTIONS = new Set(['up', 'down', 'left', 'right']);

/** Gemini key names (key_combination, e.g. 'Control+A') → the jail-service's (jail-service/src/keys.ts). */
const KEY_NAMES: Readonly<Record<string, string>> = {
  control: 'ctrl',
  command: 'meta',
  return: 'enter',
  '+': 'plus',
};

function action(name: string, raw: Record<string, string>, extra: Partial<ModelAction> = {}) {
  return { name, ...extra, args: { ...raw, ...(extra.args ?? {}) } } as ModelAction;
}

function invalid(message: string): CallOutcome {
  return { kind: 'invalid', message };
}

function point(name: string, args: Args, xKey = 'x', yKey = 'y'): Position | string {
  const x = args[xKey];
  const y = args[yKey];
  if (typeof x !== 'number' || typeof y !== 'number' || !Number.isFinite(x + y)) {
    return `${name} needs numbers ${xKey} and ${yKey} on the 0–999 grid`;
  }
  return { x, y };
}

function flag(args: Args, key: string, fallback: boolean): boolean | null {
  const value = args[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  return null;
}

function direction(name: string, args: Args): string | CallOutcome {
  const value = typeof args.direction === 'string' ? args.direction.trim().toLowerCase() : '';
  return DIRECTIONS.has(value)
    ? value
    : invalid(`${name} needs direction "up", "down", "left" or "right"`);
}

const pointer =
  (name: string, type: string): Mapper =>
  (args, raw) => {
    const at = point(name, args);
    if (typeof at === 'string') return invalid(at);
    return { kind: 'actions', actions: [action(type, raw, { start: at })] };
  };

const typeTextAt: Mapper = (args, raw) => {
  const at = point('type_text_at', args);
  if (typeof at === 'string') return invalid(at);
  if (typeof args.text !== 'string') return invalid('type_text_at needs text (a string)');
  // Defaults of the reference implementation (agent.py): press_enter false, clear_before_typing
  // true. The API table says press_enter defaults to true; the model sends both in practice.
  const pressEnter = flag(args, 'press_enter', false);
  const clear = flag(args, 'clear_before_typing', true);
  if (pressEnter === null || clear === null) {
    return invalid('type_text_at press_enter and clear_before_typing must be true or false');
  }
  const actions = [action('click', raw, { start: at })];
  if (clear) {
    actions.push(action('hotkey', raw, { args: { key: 'ctrl a' } }));
    actions.push(action('hotkey', raw, { args: { key: 'backspace' } }));
  }
  const content = pressEnter ? `${args.text}\n` : args.text;
  if (content !== '') actions.push(action('type', raw, { args: { content } }));
  return { kind: 'actions', actions };
};

const scrollDocument: Mapper = (args, raw) => {
  const dir = direction('scroll_document', args);
  if (typeof dir !== 'string') return dir;
  // No point: the planner scrolls at the viewport centre by the configured amount.
  return { kind: 'actions', actions: [action('scroll', raw, { args: { direction: dir } })] };
};

const scrollAt: Mapper = (args, raw) => {
  const at = point('scroll_at', args);
  if (typeof at === 'string') return invalid(at);
  const dir = direction('scroll_at', args);
  if (typeof dir !== 'string') return dir;
  const magnitude = args.magnitude;
  if (magnitude !== undefined && (typeof magnitude !== 'number' || !(magnitude > 0))) {
    return invalid('scroll_at magnitude must be a positive number on the 0–999 grid');
  }
  // The magnitude is a share of the screen on the 0–999 grid: the planner scales it to the
  // viewport along the scroll axis (screen_fraction). Absent: the configured scroll amount.
  const scrollArgs: Record<string, string> = { direction: dir };
  if (typeof magnitude === 'number') scrollArgs.screen_fraction = String(magnitude / 1000);
  return {
    kind: 'actions',
    actions: [action('scroll', raw, { start: at, args: scrollArgs })],
  };
};

const navigate: Mapper = (args, raw) => {
  const url = typeof args.url === 'string' ? args.url.trim() : '';
  if (url === '') return invalid('navigate needs url (a string)');
  return { kind: 'actions', actions: [action('navigate', raw, { args: { content: url } })] };
};

const keyCombination: Mapper = (args, raw) => {
  const text = Array.isArray(args.keys) ? args.keys.join('+') : args.keys;
  if (typeof text !== 'string' || text.trim() === '') {
    return invalid('key_combination needs keys, e.g. "Control+A" or "Enter"');
  }
  const keys = (text.trim() === '+' ? ['+'] : text.split(/(?<=.)\+(?=.)/))
    .map((key) => key.trim().toLowerCase())
    .filter((key) => key !== '')
    .map((key) => KEY_NAMES[key] ?? key);
  if (keys.length === 0 || keys.length > 4 || keys.some((key) => /\s/.test(key))) {
    return invalid('key_combination takes 1 to 4 keys joined by "+", e.g. "Control+A"');
  }
  return { kind: 'actions', actions: [action('hotkey', raw, { args: { key: keys.join(' ') } })] };
};

const dragAndDrop: Mapper = (args, raw) => {
  const from = point('drag_and_drop', args);
  if (typeof from === 'string') return invalid(from);
  const to = point('drag_and_drop', args, 'destination_x', 'destination_y');
  if (typeof to === 'string') return invalid(to);
  return { kind: 'actions', actions: [action('drag', raw, { start: from, end: to })] };
};

const MAPPERS: Readonly<Record<string, Mapper>> = {
  // The browser is open whenever the model speaks: look again.
  open_web_browser: (_args, raw) => ({ kind: 'actions', actions: [action('screenshot', raw)] }),
  click_at: pointer('click_at', 'click'),
  hover_at: pointer('hover_at', 'hover'),
  type_text_at: typeTextAt,
  scroll_document: scrollDocument,
  scroll_at: scrollAt,
  // The planner waits CLAWDIE_WAIT_MS (default 5000).
  wait_5_seconds: (_args, raw) => ({ kind: 'actions', actions: [action('wait', raw)] }),
  go_back: (_args, raw) => ({ kind: 'actions', actions: [action('navigate_back', raw)] }),
  go_forward: () => ({
    kind: 'refused',
    note: 'go_forward is not available here: Clawdie cannot go forward in history. Use navigate with the URL instead.',
  }),
  search: (_args, raw) => ({
    kind: 'actions',
    actions: [action('navigate', raw, { args: { content: GEMINI_SEARCH_URL } })],
  }),
  navigate,
  key_combination: keyCombination,
  drag_and_drop: dragAndDrop,
};

/** The raw arguments as strings for the trace (`safety_decision` is read separately). */
function rawArgs(name: string, args: Args): Record<string, string> {
  const raw: Record<string, string> = { function: name };
  for (const [key, value] of Object.entries(args)) {
    if (key === 'safety_decision') continue;
    raw[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return raw;
}

/** Maps one function call; never throws. */
export function mapGeminiCall(name: string, args: Args): CallOutcome {
  const mapper = Object.hasOwn(MAPPERS, name) ? MAPPERS[name] : undefined;
  if (mapper === undefined) {
    return {
      kind: 'refused',
      note: `${name} is not a function Clawdie can run. Use one of: ${GEMINI_FUNCTIONS.filter((f) => f !== 'go_forward').join(', ')}.`,
    };
  }
  return mapper(args, rawArgs(name, args));
}
