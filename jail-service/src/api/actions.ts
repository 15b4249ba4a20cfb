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

/** What kind of field an element is, for the credential rule (a secret only into its field). */
export const fieldKindSchema = z.enum(['password', 'text', 'textarea', 'editable', 'other']);
export type FieldKind = z.infer<typeof fieldKindSchema>;

/**
 * Where the controlplane decided the action would land (`POST /landing`): the jail-service checks
 * it again immediately before dispatching input and refuses with LANDING_CHANGED, running
 * nothing, when the page moved on meanwhile (another document, other frames under the point or
 * holding the focus, another link or form destination).
 */
export const landingExpectSchema = z.strictObject({
  document_id: z.string().min(1).max(128),
  /** Origins of the frames from the top down to the target's (or the focused element's). */
  origins: z.array(z.string().max(2048)).min(1).max(32),
  destination: z.string().max(8192).nullable(),
});
export type LandingExpect = z.infer<typeof landingExpectSchema>;

/**
 * A secret's rule: typed only into the focused element when its frame's origin is one of
 * `origins` and the element is one of `fields` or carries one of the `autocomplete` tokens;
 * else refused with FOCUS_MISMATCH and nothing typed. The text goes in as one insertion into
 * that element (never keystroke by keystroke to wherever focus moves), and the field is masked
 * in every screenshot and screencast frame until its document goes away.
 */
export const secretGuardSchema = z.strictObject({
  origins: z.array(z.string().min(1).max(2048)).min(1).max(16),
  fields: z.array(fieldKindSchema).max(5),
  autocomplete: z.array(z.string().min(1).max(64)).max(8),
});
export type SecretGuard = z.infer<typeof secretGuardSchema>;

const expect = landingExpectSchema.optional();

export const clickActionSchema = z.strictObject({
  type: z.literal('click'),
  x: coordinate,
  y: coordinate,
  expect,
});
export const leftDoubleActionSchema = z.strictObject({
  type: z.literal('left_double'),
  x: coordinate,
  y: coordinate,
  expect,
});
export const rightSingleActionSchema = z.strictObject({
  type: z.literal('right_single'),
  x: coordinate,
  y: coordinate,
  expect,
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
  expect,
});
/** A chord: keys pressed in order and released in reverse, e.g. `['ctrl', 'a']`. */
export const hotkeyActionSchema = z.strictObject({
  type: z.literal('hotkey'),
  keys: z.array(keyName).min(1).max(4),
  expect,
});
/** Types text as-is; one trailing `\n` is not typed but submits with Enter. */
export const typeActionSchema = z.strictObject({
  type: z.literal('type'),
  text: z.string().max(10_000),
  expect,
  /** Set by the controlplane's credential path only, never from a model reply. */
  secret: secretGuardSchema.optional(),
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
export const pressActionSchema = z.strictObject({
  type: z.literal('press'),
  key: keyName,
  expect,
});
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
