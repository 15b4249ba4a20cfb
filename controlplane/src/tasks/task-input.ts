import { z } from 'zod';
import { urlAllowed } from '../policy/domain-match.js';
import { urlPatternSchema } from '../wait/url-pattern.js';
import type { WaitCondition } from '../wait/wait-types.js';
import { compileResultSchema } from './result-schema.js';

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .max(8192);

/**
 * A host name or a `*.`-prefixed wildcard (`example.org`, `*.example.org`): ports 80 and 443, or
 * with `:port` that port only (`example.org:8443`).
 */
const domainPattern = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(\*\.)?([a-z0-9-]+\.)*[a-z0-9-]+(:([1-9]\d{0,3}|[1-5]\d{4}|6[0-4]\d{3}|65[0-4]\d{2}|655[0-2]\d|6553[0-5]))?$/,
    'must be a host name such as example.org or *.example.org, optionally with :port',
  );

/** A kept browser session's id, as a task result returns it. */
export const keptSessionId = z
  .string()
  .regex(
    /^ks_[A-Za-z0-9_-]{16,64}$/,
    'must be a session_id returned by a task that kept its browser',
  );

/** How a task may use stored credentials: none, typed secrets after approval, or a saved session. */
export const credentialModes = ['none', 'operator_approved', 'session'] as const;
export type CredentialMode = (typeof credentialModes)[number];

/** A URL/text condition that holds while the task's site is logged in (wait-engine conditions). */
const loggedInCheckSchema = z
  .strictObject({
    url_matches: urlPatternSchema.optional(),
    text_contains: z.string().min(1).max(500).optional(),
    text_absent: z.string().min(1).max(500).optional(),
    timeout_ms: z.number().int().min(0).max(30_000).optional(),
  })
  .refine((check) => check.url_matches || check.text_contains || check.text_absent, {
    message: 'needs url_matches, text_contains or text_absent',
  });

/** The wait-engine conditions of a task's `logged_in_check` (empty when none). */
export function loggedInConditions(check: z.infer<typeof loggedInCheckSchema> | undefined) {
  if (!check) return [];
  const conditions: WaitCondition[] = [];
  if (check.url_matches) conditions.push({ type: 'url_matches', pattern: check.url_matches });
  if (check.text_contains) conditions.push({ type: 'text_contains', text: check.text_contains });
  if (check.text_absent) conditions.push({ type: 'text_absent', text: check.text_absent });
  return conditions;
}

/** The fields of `browser_run_task` input: one definition for the CLI, REST, MCP and pi. */
export const browserRunTaskFields = {
  instruction: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(10_000)
    .describe('What to do, in plain language.'),
  start_url: httpUrl.optional().describe('Page to open before the first step.'),
  surface: z
    .enum(['browser', 'desktop'])
    .default('browser')
    .describe(
      'What the agent sees and drives. "browser" (default): the web page, with browser actions. "desktop": the whole X display of the task\'s clone (headful Chromium and any other window) through screen capture and xdotool mouse/keyboard input; start_url still opens in that Chromium first. Desktop tasks need hostd with displays (Linux, Xvfb); elsewhere they end with OPERATOR_UNAVAILABLE.',
    ),
  domains: z
    .array(domainPattern)
    .min(1)
    .max(100)
    .optional()
    .describe(
      'Hosts the task may navigate to (subset of what the tenant policy allows); *.x matches subdomains.',
    ),
  credential_mode: z
    .enum(credentialModes)
    .default('none')
    .describe(
      'Whether stored credentials may be typed after an operator approves (operator_approved), or a saved session profile is injected into the fresh browser before the first step (session, with `session`).',
    ),
  session: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'must be a session profile name')
    .optional()
    .describe(
      'The saved session profile to start logged in with (credential_mode: session). Its cookies and storage are injected by the controlplane; the model never sees them.',
    ),
  keep_session: z
    .boolean()
    .default(false)
    .describe(
      "Keep this task's browser after it ends (bounded by the policy's idle TTL and the concurrency limit); the result then carries a session_id to continue in the same browser.",
    ),
  session_id: keptSessionId
    .optional()
    .describe(
      "Continue in the browser a previous task of the same tenant kept (its result's session_id) instead of a fresh one.",
    ),
  record: z
    .boolean()
    .default(false)
    .describe('Keep a video recording of the task (when the policy allows).'),
  max_steps: z
    .number()
    .int()
    .min(1)
    .max(500)
    .optional()
    .describe('Step limit (default from configuration).'),
  result_schema: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'JSON Schema the final answer must satisfy; it is then returned parsed as result_data.',
    ),
  timeout_s: z
    .number()
    .int()
    .min(1)
    .max(24 * 3600)
    .optional()
    .describe('Wall-clock limit for the whole task.'),
  success_criteria: z
    .strictObject({
      text_contains: z.array(z.string().min(1).max(500)).max(20).optional(),
      text_absent: z.array(z.string().min(1).max(500)).max(20).optional(),
      url_matches: urlPatternSchema
        .optional()
        .describe(
          'A `*` glob over the whole URL, or a /regex/flags literal (RE2 syntax: no backreferences or lookarounds).',
        ),
      visual: z
        .string()
        .min(1)
        .max(1000)
        .optional()
        .describe(
          'A condition on the screen judged by the vision model, e.g. "a green tick is shown".',
        ),
    })
    .optional()
    .describe(
      'Checked when the model calls finished(); unmet criteria send it back to work with what is missing.',
    ),
  logged_in_check: loggedInCheckSchema
    .optional()
    .describe(
      'Checked after start_url loads, before the first model step; when it fails, a person is asked to log in (takeover, reason login) instead of a blind run.',
    ),
};

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
export type BrowserRunTaskInput = z.input<typeof browserRunTaskInputSchema>;
export type BrowserRunTaskParsedInput = z.output<typeof browserRunTaskInputSchema>;

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
  /** With `keep_session`: the kept browser to continue in, or null when it could not be kept. */
  session_id: z.string().nullable().optional(),
  /** Why `keep_session` was not honoured. */
  session_refused: z.string().optional(),
});
export type CompactResult = z.infer<typeof compactResultSchema>;
