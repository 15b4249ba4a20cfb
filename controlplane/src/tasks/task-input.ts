import { z } from 'zod';
import type { WaitCondition } from '../browser/wait/wait-types.js';
import { urlAllowed } from '../governance/policy/domain-match.js';
import { compileResultSchema } from './result-schema.js';
import {
  browserRunTaskFields,
  type CredentialMode,
  type loggedInCheckSchema,
  type taskFileSchema,
} from './task-input-fields.js';
import { taskUsageSchema } from './task-usage.js';
import { taskVerificationSchema } from './verification-schema.js';

export type { CredentialMode } from './task-input-fields.js';

/** A file a task provides for upload, as its input names it. */
export type TaskFile = z.infer<typeof taskFileSchema>;

/** The wait-engine conditions of a task's `logged_in_check` (empty when none). */
export function loggedInConditions(check: z.infer<typeof loggedInCheckSchema> | undefined) {
  if (!check) return [];
  const conditions: WaitCondition[] = [];
  if (check.url_matches) conditions.push({ type: 'url_matches', pattern: check.url_matches });
  if (check.text_contains) conditions.push({ type: 'text_contains', text: check.text_contains });
  if (check.text_absent) conditions.push({ type: 'text_absent', text: check.text_absent });
  if (check.visual) conditions.push({ type: 'visual', description: check.visual });
  return conditions;
}

/** The wait-engine conditions of a task's `success_criteria` (empty when none). */
export function successConditions(
  criteria: z.infer<typeof browserRunTaskFields.success_criteria>,
): WaitCondition[] {
  if (!criteria) return [];
  return [
    ...(criteria.url_matches
      ? [{ type: 'url_matches' as const, pattern: criteria.url_matches }]
      : []),
    ...(criteria.text_contains ?? []).map((text) => ({ type: 'text_contains' as const, text })),
    ...(criteria.text_absent ?? []).map((text) => ({ type: 'text_absent' as const, text })),
    ...(criteria.visual ? [{ type: 'visual' as const, description: criteria.visual }] : []),
  ];
}

/** Input of `browser_run_task`, with the cross-field rules (start_url inside domains, schema compiles). */
export const browserRunTaskInputSchema = z
  .strictObject(browserRunTaskFields)
  .superRefine((input, context) => {
    if (input.start_url && input.domains && !urlAllowed(input.start_url, input.domains)) {
      context.addIssue({
        code: 'custom',
        path: ['start_url'],
        message: `is outside the task's domains (${input.domains.join(', ')})`,
      });
    }
    if ((input.credential_mode === 'session') !== (input.session !== undefined)) {
      context.addIssue({
        code: 'custom',
        path: ['session'],
        message: 'is required with credential_mode session, and only allowed with it',
      });
    }
    if (input.result_schema) {
      try {
        compileResultSchema(input.result_schema);
      } catch (error) {
        context.addIssue({
          code: 'custom',
          path: ['result_schema'],
          message: (error as Error).message.replace(/^result_schema: /, ''),
        });
      }
    }
  });
/**
 * Input as code passes it: code names the current credential modes only; wire input may still
 * say `operator_approved`, which parses to `supervisor_approved`.
 */
export type BrowserRunTaskInput = Omit<
  z.input<typeof browserRunTaskInputSchema>,
  'credential_mode'
> & { credential_mode?: CredentialMode | undefined };
export type BrowserRunTaskParsedInput = z.output<typeof browserRunTaskInputSchema>;

export const taskResultStatusSchema = z.enum([
  'finished',
  'max_steps',
  'error',
  'aborted',
  'call_user',
]);
export type TaskResultStatus = z.infer<typeof taskResultStatusSchema>;

/** One stored download: its name (a plain file name), size, SHA-256, sniffed type and path. */
export const artifactSchema = z.object({
  name: z.string(),
  bytes: z.number().int().min(0),
  sha256: z.string(),
  mime: z.string(),
  path: z.string(),
});
export type Artifact = z.infer<typeof artifactSchema>;

/** The compact result every surface returns. Never contains screenshots. */
export const compactResultSchema = z.object({
  status: taskResultStatusSchema,
  summary: z.string().nullable(),
  result_data: z.unknown(),
  trace_id: z.string(),
  step_count: z.number().int().min(0),
  final_screenshot_path: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  /** With `keep_session`: the kept browser to continue in, or null when it could not be kept. */
  session_id: z.string().nullable().optional(),
  /** Why `keep_session` was not honoured. */
  session_refused: z.string().optional(),
  /** Model usage totals and cost (tasks/task-usage.ts); absent when no model was called. */
  usage: taskUsageSchema.optional(),
  /**
   * A `finished` task checked against the requests it made (tasks/task-verification.ts):
   * `unverified` when the last state-changing request failed or a claimed change was never sent.
   */
  verification: taskVerificationSchema.optional(),
  /** Files the browser downloaded, stored beside the trace (never their content). */
  artifacts: z.array(artifactSchema).optional(),
});
export type CompactResult = z.infer<typeof compactResultSchema>;
