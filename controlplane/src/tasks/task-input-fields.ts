// The fields of `browser_run_task` input, declared once: the REST body, the MCP tool's input, the
// CLI flags, the OpenAPI document and the pi extension's parameters (generated as JSON Schema) all
// come from here. Kept apart from task-input.ts so the pi extension loads zod and re2js only.
import { z } from 'zod';
import { PROFILE_NAMES } from '../agent/profiles/profile-types.js';
import { urlPatternSchema } from '../browser/wait/url-pattern.js';

/** An http(s) URL; the pattern tells JSON Schema readers (pi, MCP clients) what `protocol` checks. */
const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .max(8192)
  .meta({ pattern: '^https?://' });

/**
 * A host name or a `*.`-prefixed wildcard (`example.org`, `*.example.org`): ports 80 and 443, or
 * with `:port` that port only (`example.org:8443`). Any case is accepted and stored lowercased.
 */
const domainPattern = z
  .string()
  .trim()
  .regex(
    /^(\*\.)?([A-Za-z0-9-]+\.)*[A-Za-z0-9-]+(:([1-9]\d{0,3}|[1-5]\d{4}|6[0-4]\d{3}|65[0-4]\d{2}|655[0-2]\d|6553[0-5]))?$/,
    'must be a host name such as example.org or *.example.org, optionally with :port',
  )
  .toLowerCase();

/** A kept browser session's id, as a task result returns it. */
export const keptSessionId = z
  .string()
  .regex(
    /^ks_[A-Za-z0-9_-]{16,64}$/,
    'must be a session_id returned by a task that kept its browser',
  );

/** How a task may use stored credentials: none, typed secrets after approval, or a saved session. */
export const credentialModes = ['none', 'supervisor_approved', 'session'] as const;
export type CredentialMode = (typeof credentialModes)[number];

/**
 * The former name of `supervisor_approved` (before the person who approves was called the
 * supervisor): still accepted in task input and policy files, always normalised to the new name.
 */
export const legacyCredentialMode = 'operator_approved';

/** A credential mode as input accepts it (the legacy name too); it parses to the current name. */
export const credentialModeSchema = z
  .enum([...credentialModes, legacyCredentialMode])
  .transform(
    (mode): CredentialMode => (mode === legacyCredentialMode ? 'supervisor_approved' : mode),
  );

/** A natural-language condition on the screen, decided by the vision judge (docs/models.md). */
const visualCondition = (example: string) =>
  z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe(
      `A condition on the screen judged by the vision judge, e.g. "${example}" (needs a judge configured: CLAWDIE_JUDGE_URL or CLAWDIE_JUDGE_USE_MODEL; else the task is refused, JUDGE_UNAVAILABLE).`,
    );

/**
 * A URL/text/visual condition that holds while the task's site is logged in (wait-engine
 * conditions, all of which must hold).
 */
export const loggedInCheckSchema = z
  .strictObject({
    url_matches: urlPatternSchema.optional(),
    text_contains: z.string().min(1).max(500).optional(),
    text_absent: z.string().min(1).max(500).optional(),
    visual: visualCondition('the account avatar is shown in the header'),
    timeout_ms: z
      .number()
      .int()
      .min(0)
      .max(30_000)
      .optional()
      .describe('How long the conditions may take to hold: default 2000, or 15000 with visual.'),
  })
  .refine(
    (check) => check.url_matches || check.text_contains || check.text_absent || check.visual,
    { message: 'needs url_matches, text_contains, text_absent or visual' },
  );

/** A provided file's name: one plain path component, what the model and the page see. */
const uploadName = z
  .string()
  .min(1)
  .max(120)
  .refine(
    (name) =>
      !/[/\\]/.test(name) &&
      !/^\.{1,2}$/.test(name) &&
      ![...name].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f),
    'must be a plain file name',
  );

/** A file the task provides for the page's file choosers: a host file, or an earlier task's artifact. */
export const taskFileSchema = z
  .strictObject({
    name: uploadName.describe(
      'What the model and the page see; with artifact_of_task, the artifact.',
    ),
    path: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe('Absolute host path inside a directory of the policy (files.upload_dirs).'),
    artifact_of_task: z
      .string()
      .regex(/^[A-Za-z0-9-]{1,64}$/, 'must be a task id')
      .optional()
      .describe('An earlier task of the same tenant whose artifact `name` is the file.'),
  })
  .refine((file) => (file.path === undefined) !== (file.artifact_of_task === undefined), {
    message: 'needs exactly one of path and artifact_of_task',
  });

/** The fields of `browser_run_task` input: one definition for the CLI, REST, MCP and pi. */
export const browserRunTaskFields = {
  instruction: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(10_000)
    .describe(
      'What the browser agent should do, in plain language: one self-contained task with a clear end state and what to report back, e.g. "Open the pricing page and report the monthly price of the Pro plan".',
    ),
  start_url: httpUrl
    .optional()
    .describe(
      'http(s) URL to open before the first step. Give it whenever you know where the task starts; it saves steps.',
    ),
  surface: z
    .enum(['browser', 'desktop'])
    .default('browser')
    .describe(
      'What the agent sees and drives. "browser" (default): the web page, with browser actions. "desktop": the whole X display of the task\'s clone (headful Chromium and any other window) through screen capture and xdotool mouse/keyboard input; start_url still opens in that Chromium first. Desktop tasks need hostd with displays (Linux, Xvfb); elsewhere they end with OPERATOR_UNAVAILABLE.',
    ),
  host_labels: z
    .record(
      z.string().regex(/^[a-z][a-z0-9_.-]{0,31}$/, 'must be a label name like os or region'),
      z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'must be a label value like freebsd'),
    )
    .refine((labels) => Object.keys(labels).length <= 8, 'at most 8 labels')
    .optional()
    .describe(
      'Fleet only: labels the jail host that runs the task must carry, e.g. {"os": "freebsd"} or {"region": "eu"} (see `clawdie hosts list`). Without a fleet of jail hosts the task ends OPERATOR_UNAVAILABLE rather than run elsewhere.',
    ),
  domains: z
    .array(domainPattern)
    .min(1)
    .max(100)
    .optional()
    .describe(
      'Host names the task may visit, e.g. ["example.org", "*.example.org"] (*. matches subdomains; :port allows a port other than 80/443); a subset of what the tenant policy allows. Omit for the policy default.',
    ),
  credential_mode: credentialModeSchema
    .default('none')
    .describe(
      '"none" (default): never type stored credentials. "supervisor_approved": stored credentials may be typed after a human supervisor approves ("operator_approved" is its former name, still accepted). "session": a saved session profile (named in `session`) is injected into the fresh browser before the first step.',
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
      "Continue in the browser a previous task of the same tenant kept (its result's session_id) instead of a fresh one: same page, same login.",
    ),
  model_profile: z
    .enum(PROFILE_NAMES)
    .optional()
    .describe(
      'The model profile to run this task with (docs/models.md), when not the configured one; the tenant policy must list it (models.profiles).',
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
    .describe(
      'Step limit; one step is one screenshot plus a few actions. Default from the controlplane configuration (30 unless changed). Raise it for long flows.',
    ),
  result_schema: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'JSON Schema (an object schema) the final answer must satisfy; the answer then comes back parsed in result_data. Use it for structured extraction.',
    ),
  timeout_s: z
    .number()
    .int()
    .min(1)
    .max(24 * 3600)
    .optional()
    .describe(
      'Wall-clock limit for the whole task, in seconds. When exceeded the task ends with status "error" (TASK_TIMEOUT).',
    ),
  success_criteria: z
    .strictObject({
      text_contains: z.array(z.string().min(1).max(500)).max(20).optional(),
      text_absent: z.array(z.string().min(1).max(500)).max(20).optional(),
      url_matches: urlPatternSchema
        .optional()
        .describe(
          'A `*` glob over the whole URL, or a /regex/flags literal (RE2 syntax: no backreferences or lookarounds).',
        ),
      visual: visualCondition('a green tick is shown'),
    })
    .optional()
    .describe(
      'Checked when the browser agent calls finished(): text shown/absent, the URL, a visual condition. Unmet criteria send it back to work with what is missing.',
    ),
  files: z
    .array(taskFileSchema)
    .min(1)
    .max(10)
    .optional()
    .describe(
      'Files the page may ask for (an <input type=file>): each {name, path} (a host file in a directory the tenant policy allows, files.upload_dirs) or {name, artifact_of_task} (a file an earlier task of the same tenant downloaded). When the page opens a file chooser, Clawdie sets the file fitting its accept (else the first not used yet); the model sees only the names. Needs files.upload: allowed in the tenant policy.',
    ),
  logged_in_check: loggedInCheckSchema
    .optional()
    .describe(
      'Checked after start_url loads, before the first model step; when it fails, a person is asked to log in (takeover, reason login) instead of a blind run.',
    ),
};
