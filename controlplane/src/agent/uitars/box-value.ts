import type { Position } from './types.js';

const NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)$/;

/**
 * Reduces a `*_box` value to its centre, in model units. Accepts every form of
 * uitars-protocol.md §1.3: `(x,y)`, `(x1,y1,x2,y2)`, `[x1, y1, x2, y2]`, bare `x1, y1, x2, y2`,
 * `<|box_start|>(x,y)<|box_end|>`, `<bbox>x1 y1 x2 y2</bbox>`, `<point>x y</point>`, and the
 * `(x1,y1)(x2,y2)` pair of later upstream revisions. A point is its own centre.
 *
 * Returns `null` unless the value holds exactly 2 or 4 plain decimal numbers. 0 is a valid
 * coordinate (the reference browser operator treats it as missing).
 */
export function parseBoxValue(value: string): Position | null {
  const parts = value
    .replace(/<\|box_start\|>|<\|box_end\|>/g, ' ')
    .replace(/<\/?(?:bbox|point)>/g, ' ')
    .replace(/[()[\]]/g, ' ')
    .split(/[\s,]+/)
    .filter((part) => part !== '');
  if (parts.length !== 2 && parts.length !== 4) return null;
  if (!parts.every((part) => NUMBER.test(part))) return null;
  const numbers = parts.map(Number);
  const [x1 = 0, y1 = 0, x2 = x1, y2 = y1] = numbers;
  if (!numbers.every(Number.isFinite)) return null;
  return { x: (x1 + x2) / 2, y: (y1 + y2) / 2 };
}
