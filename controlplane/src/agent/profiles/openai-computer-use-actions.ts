// One OpenAI computer action object (Responses API `computer_call.action`, or an entry of the GA
// tool's batched `actions`) → Clawdie's internal actions (action-planners.ts), a refusal with a
// note for the model, or why the object is malformed. Shapes: the openai SDK's
// `ResponseComputerToolCall` / `ComputerAction` types (resources/responses/responses.d.ts).
import type { ModelAction, Position } from '../uitars/types.js';

export type MappedAction =
  | { kind: 'actions'; actions: ModelAction[] }
  | { kind: 'refused'; name: string; note: string }
  | { kind: 'malformed'; message: string };

type Fields = Record<string, unknown>;

/** Maps one action object; `callId` goes into each action's args for the trace. */
export function mapComputerAction(action: unknown, callId: string): MappedAction {
  if (typeof action !== 'object' || action === null || Array.isArray(action)) {
    return malformed('a computer_call action must be an object with a `type`');
  }
  const fields = action as Fields;
  const type = fields.type;
  if (typeof type !== 'string') return malformed('a computer_call action has no string `type`');
  const raw: Record<string, string> = { call_id: callId, openai_action: type };
  switch (type) {
    case 'click':
      return click(fields, raw);
    case 'double_click':
      return pointer('left_double', fields, raw);
    case 'move':
      return pointer('hover', fields, raw);
    case 'drag':
      return drag(fields, raw);
    case 'keypress':
      return keypress(fields, raw);
    case 'scroll':
      return scroll(fields, raw);
    case 'type':
      if (typeof fields.text !== 'string') return malformed('type needs a string `text`');
      return single({ name: 'type', args: { ...raw, content: fields.text, text: fields.text } });
    case 'wait':
      return single({ name: 'wait', args: raw });
    case 'screenshot':
      return single({ name: 'screenshot', args: raw });
    default:
      return refused(
        type,
        `The computer action '${type}' is not supported here; use click, double_click, drag, keypress, move, scroll, type, wait or screenshot.`,
      );
  }
}

/** OpenAI key names ('CTRL', 'ENTER', 'ArrowLeft', 'PAGE_DOWN', ' ') → jail-service's (jail-service/src/keys.ts). */
export function normaliseKey(key: string): string {
  if (key === ' ') return 'space';
  if (key === '+') return 'plus';
  const lower = key.trim().toLowerCase();
  return lower.length > 1 ? lower.replace(/[_-]/g, '') : lower;
}

function click(fields: Fields, raw: Record<string, string>): MappedAction {
  const button = fields.button ?? 'left';
  if (typeof button !== 'string') return malformed('click `button` must be a string');
  raw.button = button;
  if (button === 'back') return single({ name: 'navigate_back', args: raw });
  if (button === 'wheel') {
    return refused(
      'click(button=wheel)',
      'A middle click (button wheel) is not supported; use a left or right click.',
    );
  }
  if (button === 'forward') {
    return refused(
      'click(button=forward)',
      'Going forward in the browser history is not supported; click the link again instead.',
    );
  }
  if (button !== 'left' && button !== 'right') {
    return refused(`click(button=${button})`, `The mouse button '${button}' is not supported.`);
  }
  return pointer(button === 'left' ? 'click' : 'right_single', fields, raw);
}

function pointer(name: string, fields: Fields, raw: Record<string, string>): MappedAction {
  const at = point(fields);
  if (at === null) return malformed(`${raw.openai_action} needs numeric x and y`);
  const action: ModelAction = { name, args: { ...raw, x: String(at.x), y: String(at.y) } };
  action.start = at;
  return withHeldKeys(action, fields);
}

function drag(fields: Fields, raw: Record<string, string>): MappedAction {
  const path = Array.isArray(fields.path) ? fields.path.map(point) : [];
  const first = path[0];
  const last = path.at(-1);
  if (path.length < 2 || path.includes(null) || !first || !last) {
    return malformed('drag needs a `path` of at least two {x, y} points');
  }
  const action: ModelAction = { name: 'drag', args: { ...raw, path: JSON.stringify(fields.path) } };
  action.start = first;
  action.end = last;
  return withHeldKeys(action, fields);
}

function keypress(fields: Fields, raw: Record<string, string>): MappedAction {
  const keys = fields.keys;
  if (!Array.isArray(keys) || keys.length === 0 || keys.some((key) => typeof key !== 'string')) {
    return malformed('keypress needs `keys`, a non-empty array of key names');
  }
  const key = (keys as string[]).map(normaliseKey).join(' ');
  return single({ name: 'hotkey', args: { ...raw, key, keys: JSON.stringify(keys) } });
}

/** scroll_x / scroll_y are pixels of the display (positive: right / down); one action per axis. */
function scroll(fields: Fields, raw: Record<string, string>): MappedAction {
  const at = point(fields);
  const dx = fields.scroll_x;
  const dy = fields.scroll_y;
  if (at === null || !isFiniteNumber(dx) || !isFiniteNumber(dy)) {
    return malformed('scroll needs numeric x, y, scroll_x and scroll_y');
  }
  const base = {
    ...raw,
    x: String(at.x),
    y: String(at.y),
    scroll_x: String(dx),
    scroll_y: String(dy),
  };
  const axes: [number, string, string][] = [
    [dy, 'down', 'up'],
    [dx, 'right', 'left'],
  ];
  const actions = axes
    .filter(([distance]) => distance !== 0)
    .map(([distance, positive, negative]): ModelAction => {
      const direction = distance > 0 ? positive : negative;
      return {
        name: 'scroll',
        args: { ...base, direction, amount: String(Math.abs(distance)) },
        start: at,
      };
    });
  if (actions.length === 0) return refused('scroll', 'A scroll of 0 pixels does nothing.');
  return withHeldKeys(actions, fields);
}

/** Modifier keys held during a pointer action: pressed before it, released after it in reverse. */
function withHeldKeys(action: ModelAction | ModelAction[], fields: Fields): MappedAction {
  const actions = Array.isArray(action) ? action : [action];
  const keys = Array.isArray(fields.keys) ? fields.keys.filter((k) => typeof k === 'string') : [];
  if (keys.length === 0) return { kind: 'actions', actions };
  const names = keys.map(normaliseKey);
  const held = JSON.stringify(fields.keys);
  const press = names.map((key): ModelAction => ({ name: 'press', args: { key, keys: held } }));
  const release = [...names]
    .reverse()
    .map((key): ModelAction => ({ name: 'release', args: { key, keys: held } }));
  return { kind: 'actions', actions: [...press, ...actions, ...release] };
}

function point(value: unknown): Position | null {
  if (typeof value !== 'object' || value === null) return null;
  const { x, y } = value as Fields;
  return isFiniteNumber(x) && isFiniteNumber(y) ? { x, y } : null;
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function single(action: ModelAction): MappedAction {
  return { kind: 'actions', actions: [action] };
}

function refused(name: string, note: string): MappedAction {
  return { kind: 'refused', name, note };
}

function malformed(message: string): MappedAction {
  return { kind: 'malformed', message };
}
