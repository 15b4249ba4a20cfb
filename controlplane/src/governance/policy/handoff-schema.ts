import { z } from 'zod';

/** Why a task asks a person to take over its browser. */
export const handoffReasons = ['call_user', 'stuck', 'login', 'otp', 'captcha'] as const;
export type HandoffReason = (typeof handoffReasons)[number];

/**
 * A tenant policy's `handoff` block: which situations put the task in `needs_user` (a supervisor
 * takes over the browser through a signed link), how long to wait for one, and what a timeout
 * does. Absent: no takeover (call_user ends the task, as before).
 */
export const handoffSchema = z.strictObject({
  on: z.array(z.enum(handoffReasons)).min(1),
  timeout_s: z.number().int().min(10).max(86_400).default(900),
  on_timeout: z.enum(['end_call_user', 'abort']).default('end_call_user'),
});

export type HandoffPolicy = z.output<typeof handoffSchema>;
