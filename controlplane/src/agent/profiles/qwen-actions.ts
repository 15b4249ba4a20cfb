// Maps the `computer_use` calls of the Qwen VL cookbooks (and the Fara-7B extras) onto Clawdie's
// action vocabulary (uitars/action-planners.ts); what Clawdie cannot do is refused with a note.
// Points stay in the model's own numbers (image pixels for Qwen2.5-VL, 0–1000 for Qwen3-VL): the
// profile's CoordinateSpace says how they map. docs/models/qwen2.5-vl.md, "Actions".
import type { ModelAction, Position } from '../uitars/types.js';
import type { ParsedReply } from './profile-types.js';
import type { QwenToolCall } from './qwen-tool-calls.js';

type Args = Record<string, unknown>;
type Mapped = { actions: ModelAction[] } | { refused: string };

const POINTER: Readonly<Record<string, string>> = {
  left_click: 'click',
  right_click: 'right_single',
  double_click: 'left_double',
  mouse_move: 'hover',
};

const REFUSED: Readonly<Record<string, string>> = {
  middle_click: 'middle_click is not available; use left_click or right_click.',
  triple_click:
    'triple_click is not available; use double_click to select a word, or left_click then key ["ctrl", "a"] to select all.',
  web_search: 'web_search is not available; visit_url a search page and type the query instead.',
  pause_and_memorize_fact:
    'pause_and_memorize_fact is not available; keep the fact in your own reasoning.',
  refresh: 'refresh is not available; visit_url the current address to reload it.',
};

/** The actions and refusals of one reply's calls; `thought` is the final answer of `terminate`. */
export function mapQwenCalls(
  calls: readonly QwenToolCall[],
  thought: string,
): Pick<ParsedReply, 'actions' | 'refused'> {
  const actions: ModelAction[] = [];
  const refused: ParsedReply['refused'] = [];
  for (const call of calls) {
    const name = typeof call.arguments.action === 'string' ? call.arguments.action : '';
    const label = name === '' ? call.name : name;
    if (call.name !== 'computer_use') {
      refused.push({
        name: call.name,
        note: `There is no function ${call.name}; call computer_use.`,
      });
      continue;
    }
    const ended = actions.at(-1);
    if (ended?.name === 'finished' && name === 'terminate') continue; // `answer`, then `terminate`: one ending
    if (ended && (ended.name === 'finished' || ended.name === 'call_user')) {
      refused.push({ name: label, note: `${label} came after the task ended; it was not done.` });
      continue;
    }
    const pointerAt = actions.at(-1)?.end ?? actions.at(-1)?.start;
    const mapped = mapCall(name, call.arguments, thought, pointerAt);
    if ('refused' in mapped) refused.push({ name: label, note: mapped.refused });
    else actions.push(...mapped.actions);
  }
  return { actions, refused };
}

function mapCall(name: string, args: Args, thought: string, lastPoint?: Position): Mapped {
  const raw = rawArgs(args);
  const at = point(args.coordinate);
  const pointer = POINTER[name];
  if (pointer) {
    if (!at) return { refused: `${name} needs coordinate [x, y].` };
    return one({ name: pointer, args: raw, start: at });
  }
  const refusal = REFUSED[name];
  if (refusal) return { refused: refusal };
  switch (name) {
    case 'left_click_drag': {
      const start = point(args.start_coordinate) ?? lastPoint;
      if (!at) return { refused: 'left_click_drag needs coordinate [x, y] (where to drop).' };
      if (!start)
        return {
          refused:
            'left_click_drag starts where the pointer is, which is not known here: call mouse_move to the start point and left_click_drag in the same reply.',
        };
      return one({ name: 'drag', args: raw, start, end: at });
    }
    case 'type':
      return typeText(args, raw, at);
    case 'key':
      return key(args, raw);
    case 'scroll':
    case 'hscroll':
      return scroll(name, args, raw, at);
    case 'wait':
      return one({ name: 'wait', args: raw });
    case 'terminate':
      if (args.status === 'failure')
        return one({ name: 'call_user', args: { ...raw, content: failure(thought) } });
      return one({ name: 'finished', args: { ...raw, content: thought } });
    case 'answer':
      return one({ name: 'finished', args: { ...raw, content: text(args.text) ?? thought } });
    case 'visit_url':
      return visitUrl(args, raw);
    case 'history_back':
      return one({ name: 'navigate_back', args: raw });
    default:
      return { refused: `computer_use has no action "${name}".` };
  }
}

function typeText(args: Args, raw: Record<string, string>, at: Position | undefined): Mapped {
  const content = text(args.text);
  if (content === undefined) return { refused: 'type needs text.' };
  const actions: ModelAction[] = [];
  // Fara's `type` may carry where to type and whether to clear the field or press Enter.
  if (at) actions.push({ name: 'click', args: raw, start: at });
  if (args.delete_existing_text === true)
    actions.push({ name: 'hotkey', args: { ...raw, key: 'ctrl a' } });
  const enter = args.press_enter === true && !content.endsWith('\n') ? '\n' : '';
  actions.push({ name: 'type', args: { ...raw, content: content + enter } });
  return { actions };
}

function key(args: Args, raw: Record<string, string>): Mapped {
  const list = Array.isArray(args.keys) ? args.keys : [args.keys ?? args.key ?? args.text];
  const keys = list.filter(
    (item): item is string => typeof item === 'string' && item.trim() !== '',
  );
  if (keys.length === 0 || keys.length !== list.length)
    return { refused: 'key needs keys, a list of key names, e.g. ["ctrl", "c"].' };
  return one({
    name: 'hotkey',
    args: { ...raw, key: keys.map((k) => k.trim().toLowerCase()).join(' ') },
  });
}

/**
 * `pixels` > 0 scrolls up, and right for `hscroll` (pyautogui's `scroll`/`hscroll`, which the
 * cookbook tool mirrors); the amount is Clawdie's scroll step, as Fara's harness pages.
 */
function scroll(name: string, args: Args, raw: Record<string, string>, at?: Position): Mapped {
  const pixels = typeof args.pixels === 'string' ? Number(args.pixels) : args.pixels;
  if (typeof pixels !== 'number' || !Number.isFinite(pixels) || pixels === 0)
    return { refused: `${name} needs pixels, a non-zero number (positive scrolls up).` };
  const up = pixels > 0;
  const direction = name === 'hscroll' ? (up ? 'right' : 'left') : up ? 'up' : 'down';
  const action: ModelAction = { name: 'scroll', args: { ...raw, direction } };
  if (at) action.start = at;
  return one(action);
}

function visitUrl(args: Args, raw: Record<string, string>): Mapped {
  const url = text(args.url)?.trim() ?? '';
  if (url === '') return { refused: 'visit_url needs url.' };
  if (/\s/.test(url)) return { refused: 'visit_url takes an address, not a search query.' };
  // Fara's harness visits a bare host as https (src/fara/fara_agent.py).
  const full = /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`;
  return one({ name: 'navigate', args: { ...raw, url: full, content: full } });
}

const one = (action: ModelAction): Mapped => ({ actions: [action] });

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

const failure = (thought: string) =>
  `The model ended the task as failed${thought === '' ? '.' : `: ${thought}`}`;

/** [x, y] as numbers (or numeric strings, or "x,y"); undefined when it is not a point. */
function point(value: unknown): Position | undefined {
  const parts = typeof value === 'string' ? value.replace(/[[\]()]/g, '').split(/[\s,]+/) : value;
  if (!Array.isArray(parts) || parts.length !== 2) return undefined;
  const [x, y] = parts.map((part) =>
    typeof part === 'string' && part !== '' ? Number(part) : part,
  );
  if (typeof x !== 'number' || typeof y !== 'number') return undefined;
  return Number.isFinite(x) && Number.isFinite(y) ? { x, y } : undefined;
}

/** The provider's arguments as strings, for the trace. */
function rawArgs(args: Args): Record<string, string> {
  return Object.fromEntries(
    Object.entries(args).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  );
}
