import { z } from 'zod';

/**
 * The actions the jail-service executes, in **screen pixels**: CSS pixels of the page viewport,
 * the coordinate space of CDP input events (origin top-left, x < viewport width, y < viewport
 * height). The controlplane maps model coordinates (screenshot pixels) to these by dividing by the
 * device pixel ratio that `GET /screenshot` reports.
 */
const coordinate = z.number().finite().min(0);

export const pointSchema = z.strictObject({ x: coordinate, y: coordinate });
export type Point = z.infer<typeof pointSchema>;

const keyName = z.string().min(1).max(32);

export const clickActionSchema = z.strictObject({
  type: z.literal('click'),
  x: coordinate,
  y: coordinate,
});
export const leftDoubleActionSchema = z.strictObject({
  type: z.literal('left_double'),
  x: coordinate,
  y: coordinate,
});
export const rightSingleActionSchema = z.strictObject({
  type: z.literal('right_single'),
  x: coordinate,
  y: coordinate,
});
export const hoverActionSchema = z.strictObject({
  type: z.literal('hover'),
  x: coordinate,
  y: coordinate,
});
export const dragActionSchema = z.strictObject({
  type: z.literal('drag'),
  from: pointSchema,
  to: pointSchema,
});
/** A chord: keys pressed in order and released in reverse, e.g. `['ctrl', 'a']`. */
export const hotkeyActionSchema = z.strictObject({
  type: z.literal('hotkey'),
  keys: z.array(keyName).min(1).max(4),
});
/** Types text as-is; one trailing `\n` is not typed but submits with Enter. */
export const typeActionSchema = z.strictObject({
  type: z.literal('type'),
  text: z.string().max(10_000),
});
/** Scrolls the element under (x, y) by `amount` CSS pixels (default 500) in `direction`. */
export const scrollActionSchema = z.strictObject({
  type: z.literal('scroll'),
  x: coordinate,
  y: coordinate,
  direction: z.enum(['up', 'down', 'left', 'right']),
  amount: z.number().finite().positive().max(100_000).optional(),
});
const urlString = z.string().min(1).max(8192);
export const navigateActionSchema = z.strictObject({ type: z.literal('navigate'), url: urlString });
export const openUrlActionSchema = z.strictObject({ type: z.literal('open_url'), url: urlString });
export const navigateBackActionSchema = z.strictObject({ type: z.literal('navigate_back') });
export const waitActionSchema = z.strictObject({
  type: z.literal('wait'),
  ms: z.number().int().min(0).max(60_000),
});
/** Taps one key (down then up). */
export const pressActionSchema = z.strictObject({ type: z.literal('press'), key: keyName });
/** Holds one key down until a matching `keyup` (UI-TARS `press`/`release` map onto these). */
export const keydownActionSchema = z.strictObject({ type: z.literal('keydown'), key: keyName });
export const keyupActionSchema = z.strictObject({ type: z.literal('keyup'), key: keyName });

export const actionSchema = z.discriminatedUnion('type', [
  clickActionSchema,
  leftDoubleActionSchema,
  rightSingleActionSchema,
  hoverActionSchema,
  dragActionSchema,
  hotkeyActionSchema,
  typeActionSchema,
  scrollActionSchema,
  navigateActionSchema,
  openUrlActionSchema,
  navigateBackActionSchema,
  waitActionSchema,
  pressActionSchema,
  keydownActionSchema,
  keyupActionSchema,
]);
export type Action = z.infer<typeof actionSchema>;
export type ActionType = Action['type'];

/** Every point an action touches, for range checks against the viewport. */
export function actionPoints(action: Action): Point[] {
  switch (action.type) {
    case 'click':
    case 'left_double':
    case 'right_single':
    case 'hover':
    case 'scroll':
      return [{ x: action.x, y: action.y }];
    case 'drag':
      return [action.from, action.to];
    default:
      return [];
  }
}
