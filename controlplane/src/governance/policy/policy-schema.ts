import { isAbsolute } from 'node:path';
import {
  DEFAULT_DOWNLOAD_KINDS,
  downloadKinds,
  type FieldKind,
  fieldKindSchema,
  MAX_UPLOAD_BYTES,
  sessionOriginSchema,
} from '@clawdie/kit/jail-api';
import { z } from 'zod';
import { PROFILE_NAMES } from '../../agent/profiles/profile-types.js';
import { credentialModeSchema } from '../../tasks/task-input-fields.js';
import { handoffSchema } from './handoff-schema.js';
import { compileLinearRegex } from './linear-regex.js';

/** A host, `*.`-wildcard, or `*` (any host): ports 80/443, or with `:port` that port only. */
const hostPattern = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(\*|(\*\.)?([a-z0-9-]+\.)*[a-z0-9-]+)(:([1-9]\d{0,3}|[1-5]\d{4}|6[0-4]\d{3}|65[0-4]\d{2}|655[0-2]\d|6553[0-5]))?$/,
    'must be a host such as example.org, *.example.org or *, optionally with :port',
  );

/** A policy's per-file download limit unless it names one: 25 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 25 * 1024 * 1024;

export const decisionValues = ['allow', 'deny', 'needs_approval'] as const;
export type DecisionValue = (typeof decisionValues)[number];

const actionRule = z.strictObject({
  /** Action type (`click`, `type`, `navigate`, …) or `*`. */
  action: z.string().min(1),
  /** Hosts the rule applies to: the target of a navigation, else the current page. */
  hosts: z.array(hostPattern).min(1).optional(),
  /** A regular expression over typed text (type actions only). */
  text: z
    .string()
    .max(2000)
    .superRefine((source, context) => {
      const compiled = compileLinearRegex(source);
      if (!compiled.success) {
        const message = `must be a valid regular expression: ${compiled.message}`;
        context.addIssue({ code: 'custom', message });
      }
    })
    .optional(),
  decision: z.enum(decisionValues),
  reason: z.string().min(1),
});

/** One tenant's policy file (`policies/<tenant>.yaml`). */
export const policySchema = z.strictObject({
  tenant: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be lower-case letters, digits, - or _'),
  domains: z.strictObject({
    /** Hosts tasks may visit; a task's `domains` must lie within these. */
    allow: z.array(hostPattern).min(1),
    /** A navigation outside the task's domains: refused, or asked of a supervisor. */
    outside: z.enum(['deny', 'needs_approval']).default('deny'),
  }),
  max_steps: z.number().int().min(1).max(500),
  recording: z.enum(['off', 'allowed', 'always']).default('allowed'),
  credentials: z
    .strictObject({
      modes: z.array(credentialModeSchema).min(1).default(['none']),
      secrets: z
        .array(
          z.strictObject({
            name: z.string().regex(/^[A-Za-z0-9_.-]+$/),
            domains: z.array(hostPattern).min(1),
            /**
             * The fields it may be typed into (the focused element, checked before approval and
             * again by the jail-service): absent = password fields only; given = fields of one of
             * `kinds` or carrying one of the `autocomplete` tokens (e.g. `one-time-code`).
             */
            fields: z
              .strictObject({
                kinds: z.array(fieldKindSchema).max(5).default([]),
                autocomplete: z
                  .array(z.string().regex(/^[a-z0-9-]{1,64}$/))
                  .max(8)
                  .default([]),
              })
              .refine((fields) => fields.kinds.length + fields.autocomplete.length > 0, {
                message: 'name at least one field kind or autocomplete token',
              })
              .optional(),
          }),
        )
        .default([]),
      /** Saved session profiles the tenant's tasks may start with, and the origins each may cover. */
      sessions: z
        .array(
          z.strictObject({
            name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/),
            origins: z.array(sessionOriginSchema).min(1),
            require_approval: z.boolean().default(false),
          }),
        )
        .default([]),
    })
    .default({ modes: ['none'], secrets: [], sessions: [] }),
  keep_session: z
    .strictObject({
      /** Whether a task may keep its browser for a follow-up (`keep_session`). */
      allowed: z.boolean().default(true),
      /** A kept browser nobody uses for this long is destroyed. */
      idle_ttl_s: z.number().int().min(1).max(86_400).default(300),
      /** Kept browsers this tenant may hold at once. */
      max_sessions: z.number().int().min(0).max(64).default(2),
    })
    .default({ allowed: true, idle_ttl_s: 300, max_sessions: 2 }),
  approvals: z
    .strictObject({
      credential_use: z.enum(['needs_approval', 'deny']).default('needs_approval'),
      call_user: z.enum(['allow', 'needs_approval']).default('allow'),
      timeout_s: z.number().int().min(1).max(86_400).default(300),
      actions: z.array(actionRule).default([]),
    })
    .default({ credential_use: 'needs_approval', call_user: 'allow', timeout_s: 300, actions: [] }),
  /** Model profiles a task may choose besides the configured one (`model_profile`). */
  models: z
    .strictObject({ profiles: z.array(z.enum(PROFILE_NAMES)).default([]) })
    .default({ profiles: [] }),
  /** Files the browser downloads and uploads (issue 23): each off unless the policy allows it. */
  files: z
    .strictObject({
      download: z.enum(['off', 'allowed']).default('off'),
      /** One file over this is cancelled while it arrives and deleted. */
      max_file_bytes: z
        .number()
        .int()
        .min(1)
        .max(2 ** 40)
        .default(DEFAULT_MAX_FILE_BYTES),
      /** All of a task's downloads together. */
      max_task_bytes: z
        .number()
        .int()
        .min(1)
        .max(2 ** 40)
        .default(4 * DEFAULT_MAX_FILE_BYTES),
      /** Types allowed, sniffed from the bytes; default every known type (not `binary`). */
      types: z
        .array(z.enum(downloadKinds))
        .min(1)
        .default([...DEFAULT_DOWNLOAD_KINDS]),
      /** Whether a task may provide files for the page's file choosers (task input `files`). */
      upload: z.enum(['off', 'allowed']).default('off'),
      /** Host directories a task's `files[].path` may lie in (symlinks resolved); none: only artifacts. */
      upload_dirs: z
        .array(z.string().min(1).refine(isAbsolute, 'must be an absolute path'))
        .default([]),
      /**
       * `needs_approval`: a chooser the page opens is held until a supervisor approves setting
       * the file (the card shows the file, its SHA-256 and the page's origin); refused, expired
       * or with no approver configured, the chooser stays cancelled and the task ends.
       */
      upload_approval: z.enum(['allow', 'needs_approval']).default('allow'),
      /** One provided file over this is refused at admission. */
      max_upload_bytes: z
        .number()
        .int()
        .min(1)
        .max(MAX_UPLOAD_BYTES)
        .default(DEFAULT_MAX_FILE_BYTES),
    })
    .default({
      download: 'off',
      max_file_bytes: DEFAULT_MAX_FILE_BYTES,
      max_task_bytes: 4 * DEFAULT_MAX_FILE_BYTES,
      types: [...DEFAULT_DOWNLOAD_KINDS],
      upload: 'off',
      upload_dirs: [],
      upload_approval: 'allow',
      max_upload_bytes: DEFAULT_MAX_FILE_BYTES,
    }),
  /** Human takeover (issue 15): absent means today's behaviour (no takeover). */
  handoff: handoffSchema.optional(),
});

export type TenantPolicy = z.output<typeof policySchema>;
export type ActionRule = TenantPolicy['approvals']['actions'][number];
export type SecretEntry = TenantPolicy['credentials']['secrets'][number];

/** The field rule of a secret entry: password fields unless the policy names others. */
export function secretFields(entry: SecretEntry): { kinds: FieldKind[]; autocomplete: string[] } {
  return entry.fields ?? { kinds: ['password'], autocomplete: [] };
}

/** What part of the policy a decision about an action came from (the audit's refusal kind). */
export type DecisionKind =
  | 'navigation'
  | 'frame_origin'
  | 'host_rule'
  | 'action_rule'
  | 'credential'
  | 'credential_field';

/** A policy decision: always a value with a reason, and logged to the audit. */
export interface Decision {
  decision: DecisionValue;
  reason: string;
  kind?: DecisionKind;
}
