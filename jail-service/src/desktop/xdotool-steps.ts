// The PageDriver's input steps (tools/action-steps.ts, the same steps the browser runs) → chained
// xdotool invocations. Pure: the desktop driver runs each returned argv in order.
import { ActionFailedError } from '../errors.js';
import type { InputStep, MouseButton } from '../page-driver.js';
import { domKeyToKeysym } from './x11-keysyms.js';

/** Pixels per wheel click when mapping a wheel delta onto X buttons 4–7. */
export const PIXELS_PER_WHEEL_CLICK = 100;
const MAX_WHEEL_CLICKS = 50;
/** Per-character delay of `xdotool type`; 0 drops keys in some toolkits. */
export const TYPE_DELAY_MS = 4;

const buttons: Readonly<Record<MouseButton, string>> = { left: '1', middle: '2', right: '3' };

export interface Pointer {
  x: number;
  y: number;
}

function keysym(key: string): string {
  const sym = domKeyToKeysym(key);
  // validate-batch rejects unknown names first; reaching this is a gap in the key table.
  if (sym === undefined) throw new ActionFailedError(`no X keysym for key "${key}"`);
  return sym;
}

function move(x: number, y: number): string[] {
  return ['mousemove', String(Math.round(x)), String(Math.round(y))];
}

function wheel(deltaX: number, deltaY: number): string[] {
  const vertical = Math.abs(deltaY) >= Math.abs(deltaX);
  const delta = vertical ? deltaY : deltaX;
  const button = vertical ? (delta < 0 ? '4' : '5') : delta < 0 ? '6' : '7';
  const clicks = Math.min(
    MAX_WHEEL_CLICKS,
    Math.max(1, Math.round(Math.abs(delta) / PIXELS_PER_WHEEL_CLICK)),
  );
  return ['click', '--repeat', String(clicks), '--delay', '10', button];
}

/**
 * The xdotool argument lists (without `xdotool`) for `steps`, starting with the pointer at
 * `pointer` (null: unknown). `type` takes every remaining argument, so each typed text ends one
 * invocation; everything else chains into as few invocations as possible.
 */
export function xdotoolInvocations(
  steps: readonly InputStep[],
  pointer: Pointer | null = null,
): string[][] {
  const invocations: string[][] = [];
  let current: string[] = [];
  let at = pointer;
  for (const step of steps) {
    switch (step.kind) {
      case 'mouse-move': {
        const count = step.steps ?? 1;
        for (let i = 1; i <= count; i++) {
          const part = at && count > 1 ? i / count : 1;
          const from = at ?? step;
          current.push(
            ...move(from.x + (step.x - from.x) * part, from.y + (step.y - from.y) * part),
          );
        }
        at = { x: step.x, y: step.y };
        break;
      }
      case 'mouse-down':
        current.push('mousedown', buttons[step.button]);
        break;
      case 'mouse-up':
        current.push('mouseup', buttons[step.button]);
        break;
      case 'wheel':
        current.push(...wheel(step.deltaX, step.deltaY));
        break;
      case 'key-down':
        current.push('keydown', keysym(step.key));
        break;
      case 'key-up':
        current.push('keyup', keysym(step.key));
        break;
      case 'type-text':
        current.push('type', '--delay', String(TYPE_DELAY_MS), '--', step.text);
        invocations.push(current);
        current = [];
        break;
    }
  }
  if (current.length > 0) invocations.push(current);
  return invocations;
}

/** The bound of running `args`: `base` plus the typing time of any text. */
export function invocationTimeoutMs(args: readonly string[], baseMs: number): number {
  const typed = args.includes('type') ? (args.at(-1)?.length ?? 0) : 0;
  return baseMs + typed * (TYPE_DELAY_MS + 2);
}
