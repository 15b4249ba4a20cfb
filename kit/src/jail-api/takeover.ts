// Contract of the takeover routes: `POST /input` (a supervisor's relayed input) and `GET /signals`
// (login wall / one-time code / CAPTCHA detectors). Never carries field values.
import { z } from 'zod';

/** A point as a fraction of the screencast frame (0..1 each way): DPR- and scale-independent. */
const fraction = z.number().min(0).max(1);
const button = z.enum(['left', 'right', 'middle', 'none']);
/** CDP modifier bit mask: Alt 1, Ctrl 2, Meta 4, Shift 8. */
const modifiers = z.number().int().min(0).max(15).optional();

export const supervisorInputSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('mouse'),
    action: z.enum(['move', 'down', 'up']),
    x: fraction,
    y: fraction,
    button: button.optional(),
    click_count: z.number().int().min(0).max(3).optional(),
    modifiers,
  }),
  z.strictObject({
    type: z.literal('wheel'),
    x: fraction,
    y: fraction,
    delta_x: z.number().min(-10_000).max(10_000),
    delta_y: z.number().min(-10_000).max(10_000),
  }),
  z.strictObject({
    type: z.literal('key'),
    action: z.enum(['down', 'up']),
    key: z.string().min(1).max(32),
    code: z.string().max(32).optional(),
    /** The character a printable key types (absent for Enter, Backspace, arrows, …). */
    text: z.string().max(4).optional(),
    modifiers,
  }),
  /** Text inserted at the caret as-is: a paste, or composed (IME) text. */
  z.strictObject({ type: z.literal('text'), text: z.string().min(1).max(10_000) }),
]);
export type SupervisorInput = z.infer<typeof supervisorInputSchema>;

export const inputRequestSchema = z.strictObject({
  events: z.array(supervisorInputSchema).min(1).max(200),
});

/** Element kinds input went to (for the audit): counts only, never keys or text. */
export const inputReportSchema = z.object({
  dispatched: z.number().int(),
  /** Key and text events by the kind of element that had focus when they were dispatched. */
  targets: z.object({
    password: z.number().int(),
    text: z.number().int(),
    other: z.number().int(),
  }),
});
export type InputReport = z.infer<typeof inputReportSchema>;

export const captchaKinds = ['recaptcha', 'hcaptcha', 'turnstile'] as const;
export type CaptchaKind = (typeof captchaKinds)[number];

export const signalsQuerySchema = z.object({
  /** Comma-separated origins where a login was already handled: their password fields are not new. */
  known_origins: z.string().max(4000).optional(),
});

export const pageSignalsSchema = z.object({
  url_origin: z.string(),
  password: z.object({
    /** Visible password inputs across all frames. */
    count: z.number().int(),
    /** Origins of the frames holding them. */
    origins: z.array(z.string()),
    /** Some of them are on an origin not in `known_origins`. */
    new_origin: z.boolean(),
  }),
  /** Visible `autocomplete="one-time-code"` inputs across all frames. */
  one_time_code: z.number().int(),
  captchas: z.array(z.enum(captchaKinds)),
  frames_checked: z.number().int(),
  elapsed_ms: z.number(),
});
export type PageSignals = z.infer<typeof pageSignalsSchema>;
