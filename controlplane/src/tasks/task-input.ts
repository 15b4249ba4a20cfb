import { z } from 'zod';

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .max(8192);

/** Input of `browser_run_task`: one schema for the CLI, REST and (later) MCP and pi. */
export const browserRunTaskInputSchema = z.strictObject({
  instruction: z.string().trim().min(1, 'must not be empty').max(10_000),
  start_url: httpUrl.optional(),
  max_steps: z.number().int().min(1).max(500).optional(),
  timeout_s: z
    .number()
    .int()
    .min(1)
    .max(24 * 3600)
    .optional(),
});
export type BrowserRunTaskInput = z.infer<typeof browserRunTaskInputSchema>;

export const taskResultStatusSchema = z.enum([
  'finished',
  'max_steps',
  'error',
  'aborted',
  'call_user',
]);
export type TaskResultStatus = z.infer<typeof taskResultStatusSchema>;

/** The compact result every surface returns. Never contains screenshots. */
export const compactResultSchema = z.object({
  status: taskResultStatusSchema,
  summary: z.string().nullable(),
  result_data: z.unknown(),
  trace_id: z.string(),
  step_count: z.number().int().min(0),
  final_screenshot_path: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type CompactResult = z.infer<typeof compactResultSchema>;
