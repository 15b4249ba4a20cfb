// The actions the jail-service executes (`POST /actions`), each declared once: its name, input
// fields, description and landing. Schemas, the `actionSchema` union, `GET /tools` and the table
// in docs/jail-service-api.md all come from `actionContracts`; the tools/ handlers are keyed by
// the same names (a mapped type makes a missing or extra handler a type error).
import { z } from 'zod';
import {
  coordinate,
  expect,
  keyName,
  type Point,
  pointSchema,
  secretGuardSchema,
  urlString,
} from './action-fields.js';
import { action, defineActions } from './define-action.js';

/** The default scroll distance in CSS pixels (UI-TARS operators use 500). */
export const DEFAULT_SCROLL_AMOUNT = 500;
/** The longest `wait`. */
export const MAX_WAIT_MS = 60_000;

const at = { x: 640, y: 400 };

/** In declaration order, which is the order of the union (and of its error messages). */
export const actionContracts = defineActions({
  click: action(
    { x: coordinate, y: coordinate, expect },
    { description: 'Left click at (x, y) in CSS pixels.', lands: 'point', example: at },
  ),
  left_double: action(
    { x: coordinate, y: coordinate, expect },
    { description: 'Double click at (x, y).', lands: 'point', example: at },
  ),
  right_single: action(
    { x: coordinate, y: coordinate, expect },
    { description: 'Right click at (x, y).', lands: 'point', example: at },
  ),
  hover: action(
    { x: coordinate, y: coordinate },
    { description: 'Move the mouse to (x, y).', lands: 'point', example: at },
  ),
  drag: action(
    { from: pointSchema, to: pointSchema, expect },
    {
      description: 'Press at `from`, move to `to` in small steps, release.',
      lands: 'point',
      example: { from: { x: 100, y: 300 }, to: { x: 500, y: 300 } },
    },
  ),
  /** A chord: keys pressed in order and released in reverse. */
  hotkey: action(
    { keys: z.array(keyName).min(1).max(4), expect },
    {
      description: 'Press a chord: keys down in order, up in reverse (e.g. ["ctrl", "a"]).',
      lands: 'focus',
      example: { keys: ['ctrl', 'a'] },
    },
  ),
  type: action(
    {
      text: z.string().max(10_000),
      expect,
      /** Set by the controlplane's credential path only, never from a model reply. */
      secret: secretGuardSchema.optional(),
    },
    {
      description: 'Type text into the focused element; one trailing newline presses Enter.',
      lands: 'focus',
      example: { text: 'clawdie\n' },
    },
  ),
  /** Moves to (x, y) first so the wheel scrolls the element under that point. */
  scroll: action(
    {
      x: coordinate,
      y: coordinate,
      direction: z.enum(['up', 'down', 'left', 'right']),
      amount: z.number().finite().positive().max(100_000).optional(),
    },
    {
      description: `Wheel-scroll the element under (x, y) by \`amount\` CSS pixels (default ${DEFAULT_SCROLL_AMOUNT}).`,
      lands: 'point',
      example: { ...at, direction: 'down' },
    },
  ),
  navigate: action(
    { url: urlString },
    {
      description: 'Load a URL (https:// added when there is no scheme) and wait for `load`.',
      lands: 'nowhere',
      example: { url: 'example.com' },
    },
  ),
  open_url: action(
    { url: urlString },
    {
      description: 'Same as navigate.',
      lands: 'nowhere',
      example: { url: 'https://example.com/' },
    },
  ),
  navigate_back: action(
    {},
    {
      description: 'Go back one history entry and wait for `load` (no history is not an error).',
      lands: 'history',
      example: {},
    },
  ),
  wait: action(
    { ms: z.number().int().min(0).max(MAX_WAIT_MS) },
    {
      description: `Wait \`ms\` milliseconds (at most ${MAX_WAIT_MS}).`,
      lands: 'nowhere',
      example: { ms: 1000 },
    },
  ),
  press: action(
    { key: keyName, expect },
    { description: 'Tap one key (down, then up).', lands: 'focus', example: { key: 'Enter' } },
  ),
  /** UI-TARS `press`/`release` map onto keydown/keyup. */
  keydown: action(
    { key: keyName },
    {
      description: 'Hold a key down until a matching keyup.',
      lands: 'focus',
      example: { key: 'shift' },
    },
  ),
  keyup: action(
    { key: keyName },
    { description: 'Release a held key.', lands: 'focus', example: { key: 'shift' } },
  ),
});

type Contracts = typeof actionContracts;
export type ActionType = keyof Contracts;
type ActionSchema = Contracts[ActionType]['schema'];

/** Every action name, in declaration order. */
export const actionTypes = Object.keys(actionContracts) as ActionType[];

export const actionSchema = z.discriminatedUnion(
  'type',
  actionTypes.map((type) => actionContracts[type].schema) as [ActionSchema, ...ActionSchema[]],
);
export type Action = z.infer<typeof actionSchema>;

/**
 * Every point an action touches, for range checks against the viewport: its `x`/`y`, or a
 * drag's `from` and `to`.
 */
export function actionPoints(action: Action): Point[] {
  if ('from' in action) return [action.from, action.to];
  if ('x' in action) return [{ x: action.x, y: action.y }];
  return [];
}
