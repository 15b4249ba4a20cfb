// The fields the action declarations (actions.ts) are built from, in **screen pixels**: CSS pixels
// of the page viewport, the coordinate space of CDP input events (origin top-left, x < viewport
// width, y < viewport height). The controlplane maps model coordinates (screenshot pixels) to
// these by dividing by the device pixel ratio that `GET /screenshot` reports.
import { z } from 'zod';

export const coordinate = z.number().finite().min(0);

export const pointSchema = z.strictObject({ x: coordinate, y: coordinate });
export type Point = z.infer<typeof pointSchema>;

export const keyName = z.string().min(1).max(32);

export const urlString = z.string().min(1).max(8192);

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

/** The optional `expect` of an action: declaring it is what makes an action take one. */
export const expect = landingExpectSchema.optional();

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
