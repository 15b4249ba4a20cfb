// Contract of `POST /landing`: where one action would land if it ran now — the frames under its
// point (or holding the focus), the element, and for links and forms where activating it would
// navigate or post. The controlplane decides each action against this just before running it
// (issue 20); the jail-service only reports, it holds no policy.
import { z } from 'zod';
import { fieldKindSchema } from './action-fields.js';
import { actionSchema } from './actions.js';

export const landingRequestSchema = z.strictObject({ action: actionSchema });
export type LandingRequest = z.infer<typeof landingRequestSchema>;

/** A frame's document: its URL and origin (`null` for opaque origins: sandboxed, data:, …). */
export const landingFrameSchema = z.object({ url: z.string(), origin: z.string() });
export type LandingFrame = z.infer<typeof landingFrameSchema>;

export const landingElementSchema = z.object({
  /** Lower-case tag name (`input`, `a`, `button`, `iframe` when a frame could not be entered). */
  tag: z.string(),
  input_type: z.string().nullable(),
  /** The `autocomplete` attribute as written (e.g. `current-password`, `username`), or null. */
  autocomplete: z.string().nullable(),
  field: fieldKindSchema,
});
export type LandingElement = z.infer<typeof landingElementSchema>;

/**
 * Where activating the element goes: a link's href (`link`), a submit control's or a focused
 * field's form (`form`: Enter submits it), absolute; `new_window` for `target=_blank`-like.
 */
export const landingDestinationSchema = z.object({
  kind: z.enum(['link', 'form', 'history']),
  url: z.string(),
  method: z.string(),
  new_window: z.boolean(),
});
export type LandingDestination = z.infer<typeof landingDestinationSchema>;

export const landingTargetSchema = z.object({
  /** From the top-level document down to the frame holding the element (top first). */
  frames: z.array(landingFrameSchema).min(1),
  element: landingElementSchema.nullable(),
  destination: landingDestinationSchema.nullable(),
});
export type LandingTarget = z.infer<typeof landingTargetSchema>;

export const landingResponseSchema = z.object({
  /** The active page now, with the identity of its current document. */
  url: z.string(),
  document_id: z.string(),
  /**
   * As the action's declared `lands` says (api/actions.ts, the table in docs/jail-service-api.md):
   * under its last point (a drag's `to`), the focused element, the history entry it goes to, or
   * null when it lands nowhere (a URL action's destination is its URL).
   */
  target: landingTargetSchema.nullable(),
  /** Drag only: what is under `from`. */
  source: landingTargetSchema.nullable(),
});
export type LandingResponse = z.infer<typeof landingResponseSchema>;
