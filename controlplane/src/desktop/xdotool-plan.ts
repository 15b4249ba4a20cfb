// One Action (screen pixels) → one chained xdotool invocation, a sleep, or "not on a desktop".
// Pure: the operator checks a whole batch with `batchIssue` before running any of it.
import { type Action, actionPoints } from '@clawdie/jail-service/api';
import { splitChord, toKeysym } from './x11-keys.js';

export type DesktopStep =
  | { kind: 'xdotool'; args: string[]; timeoutMs: number }
  | { kind: 'wait'; ms: number }
  | { kind: 'unsupported'; message: string };

export interface ScreenSize {
  width: number;
  height: number;
}

/** Pixels per wheel click when mapping a scroll `amount` onto X buttons 4–7. */
export const PIXELS_PER_WHEEL_CLICK = 100;
const MAX_WHEEL_CLICKS = 50;
/** Per-character delay of `xdotool type`; 0 drops keys in some toolkits. */
export const TYPE_DELAY_MS = 4;

const wheelButton = { up: '4', down: '5', left: '6', right: '7' } as const;

// `xdotool click` sleeps its --delay (100 ms by default) even after a single click, so clicks are
// spelled as button down/up pairs, which cost nothing extra.
function press(button: '1' | '3', times = 1): string[] {
  return Array.from({ length: times }, () => ['mousedown', button, 'mouseup', button]).flat();
}

function point(x: number, y: number): string[] {
  return ['mousemove', String(Math.round(x)), String(Math.round(y))];
}

function keysyms(names: readonly string[]): string[] {
  return splitChord(names).map((name) => toKeysym(name) ?? name);
}

/** The xdotool arguments (without `xdotool`) or other step for one action. */
export function planDesktopStep(action: Action, baseTimeoutMs: number): DesktopStep {
  const xdotool = (args: string[], extraMs = 0): DesktopStep => ({
    kind: 'xdotool',
    args,
    timeoutMs: baseTimeoutMs + extraMs,
  });
  switch (action.type) {
    case 'click':
      return xdotool([...point(action.x, action.y), ...press('1')]);
    case 'left_double':
      return xdotool([...point(action.x, action.y), ...press('1', 2)]);
    case 'right_single':
      return xdotool([...point(action.x, action.y), ...press('3')]);
    case 'hover':
      return xdotool(point(action.x, action.y));
    case 'drag': {
      const midX = (action.from.x + action.to.x) / 2;
      const midY = (action.from.y + action.to.y) / 2;
      return xdotool([
        ...point(action.from.x, action.from.y),
        'mousedown',
        '1',
        ...point(midX, midY),
        ...point(action.to.x, action.to.y),
        'mouseup',
        '1',
      ]);
    }
    case 'hotkey':
      return xdotool(['key', '--clearmodifiers', keysyms(action.keys).join('+')]);
    case 'press':
      return xdotool(['key', '--clearmodifiers', keysyms([action.key]).join('+')]);
    case 'keydown':
      return xdotool(['keydown', keysyms([action.key]).join('+')]);
    case 'keyup':
      return xdotool(['keyup', keysyms([action.key]).join('+')]);
    case 'type':
      // `type` takes every remaining argument, so it comes last; a newline types Return.
      return xdotool(
        ['type', '--delay', String(TYPE_DELAY_MS), '--', action.text],
        action.text.length * (TYPE_DELAY_MS + 2),
      );
    case 'scroll': {
      const amount = action.amount ?? 500;
      const clicks = Math.min(
        MAX_WHEEL_CLICKS,
        Math.max(1, Math.round(amount / PIXELS_PER_WHEEL_CLICK)),
      );
      const button = wheelButton[action.direction];
      return xdotool([
        ...point(action.x, action.y),
        'click',
        '--repeat',
        String(clicks),
        '--delay',
        '10',
        button,
      ]);
    }
    case 'wait':
      return { kind: 'wait', ms: action.ms };
    case 'navigate':
    case 'open_url':
    case 'navigate_back':
      return {
        kind: 'unsupported',
        message: `UNSUPPORTED_ON_DESKTOP: ${action.type} needs a browser; this operator drives an X11 desktop`,
      };
  }
}

/** The first reason the batch cannot run (a point off screen, an unknown key), or null. */
export function batchIssue(actions: readonly Action[], screen: ScreenSize): string | null {
  for (const [index, action] of actions.entries()) {
    for (const { x, y } of actionPoints(action)) {
      if (x >= screen.width || y >= screen.height) {
        return `action ${index} (${action.type}): point (${x}, ${y}) is outside the ${screen.width}x${screen.height} screen`;
      }
    }
    const names =
      action.type === 'hotkey'
        ? action.keys
        : action.type === 'press' || action.type === 'keydown' || action.type === 'keyup'
          ? [action.key]
          : [];
    const parts = splitChord(names);
    if (names.length > 0 && parts.length === 0) return `action ${index}: no key names`;
    const unknown = parts.find((part) => toKeysym(part) === undefined);
    if (unknown !== undefined)
      return `action ${index} (${action.type}): unknown key name "${unknown}"`;
  }
  return null;
}
