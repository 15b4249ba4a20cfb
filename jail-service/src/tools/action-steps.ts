// Pure translation of contract actions into PageDriver input steps (no browser, no timing).
import { type Action, DEFAULT_SCROLL_AMOUNT } from '@clawdie/kit/jail-api';
import { UnknownKeyError } from '../errors.js';
import { resolveKeys } from '../keys.js';
import type { InputStep, MouseButton } from '../page-driver.js';

/** Intermediate pointer moves of a drag, so pages see a movement rather than a jump. */
export const DRAG_MOVES = 8;

type PointerAction = Extract<Action, { type: 'click' | 'left_double' | 'right_single' | 'hover' }>;

export function pointerSteps(action: PointerAction): InputStep[] {
  const move: InputStep = { kind: 'mouse-move', x: action.x, y: action.y };
  switch (action.type) {
    case 'hover':
      return [move];
    case 'click':
      return [move, ...clicks('left', 1)];
    case 'right_single':
      return [move, ...clicks('right', 1)];
    case 'left_double':
      return [move, ...clicks('left', 2)];
  }
}

/** `count` presses with increasing clickCount, as a real double click sends them. */
function clicks(button: MouseButton, count: number): InputStep[] {
  const steps: InputStep[] = [];
  for (let clickCount = 1; clickCount <= count; clickCount++) {
    steps.push(
      { kind: 'mouse-down', button, clickCount },
      { kind: 'mouse-up', button, clickCount },
    );
  }
  return steps;
}

export function dragSteps(action: Extract<Action, { type: 'drag' }>): InputStep[] {
  return [
    { kind: 'mouse-move', x: action.from.x, y: action.from.y },
    { kind: 'mouse-down', button: 'left', clickCount: 1 },
    { kind: 'mouse-move', x: action.to.x, y: action.to.y, steps: DRAG_MOVES },
    { kind: 'mouse-up', button: 'left', clickCount: 1 },
  ];
}

/** Moves to (x, y) first so the wheel scrolls the element under that point. */
export function scrollSteps(action: Extract<Action, { type: 'scroll' }>): InputStep[] {
  const amount = action.amount ?? DEFAULT_SCROLL_AMOUNT;
  const delta = {
    up: { deltaX: 0, deltaY: -amount },
    down: { deltaX: 0, deltaY: amount },
    left: { deltaX: -amount, deltaY: 0 },
    right: { deltaX: amount, deltaY: 0 },
  }[action.direction];
  return [
    { kind: 'mouse-move', x: action.x, y: action.y },
    { kind: 'wheel', ...delta },
  ];
}

/** The text without one trailing newline, and whether there was one (pressed as Enter). */
export function splitTrailingNewline(value: string): { text: string; enter: boolean } {
  const match = /\r?\n$/.exec(value);
  return match ? { text: value.slice(0, match.index), enter: true } : { text: value, enter: false };
}

export function enterSteps(): InputStep[] {
  return [
    { kind: 'key-down', key: 'Enter' },
    { kind: 'key-up', key: 'Enter' },
  ];
}

/** Types the text; one trailing newline is not typed but pressed as Enter (submits forms). */
export function typeSteps(action: Extract<Action, { type: 'type' }>): InputStep[] {
  const { text, enter } = splitTrailingNewline(action.text);
  const steps: InputStep[] = text === '' ? [] : [{ kind: 'type-text', text }];
  if (enter) steps.push(...enterSteps());
  return steps;
}

type KeyAction = Extract<Action, { type: 'hotkey' | 'press' | 'keydown' | 'keyup' }>;

/** Chords press in order and release in reverse; keydown/keyup do only their half. */
export function keySteps(action: KeyAction): InputStep[] {
  const keys = keysOf(action);
  const down = keys.map((key): InputStep => ({ kind: 'key-down', key }));
  const up = [...keys].reverse().map((key): InputStep => ({ kind: 'key-up', key }));
  if (action.type === 'keydown') return down;
  if (action.type === 'keyup') return up;
  return [...down, ...up];
}

/** The normalised key names of a key action; throws UnknownKeyError for any unknown name. */
export function keysOf(action: KeyAction): string[] {
  const names = action.type === 'hotkey' ? action.keys : [action.key];
  const resolved = resolveKeys(names);
  if (!resolved.ok) {
    const unknown = resolved.unknown.length > 0 ? resolved.unknown.join(', ') : names.join(' ');
    throw new UnknownKeyError(`unknown key name: ${unknown}`);
  }
  return resolved.keys;
}

/** Adds `https://` when the URL has no scheme (`example.com/x` → `https://example.com/x`). */
export function normalizeUrl(url: string): string {
  const trimmed = url.trim();
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(trimmed)) return trimmed;
  if (/^(about|data|blob|javascript|file|chrome):/i.test(trimmed)) return trimmed;
  return `https://${trimmed}`;
}
