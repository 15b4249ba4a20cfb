// TypeBox parameters of browser_run_task, mirroring the controlplane's `browserRunTaskInputSchema`
// (controlplane/src/tasks/task-input.ts), which re-validates every field server-side.
import { type Static, type TUnsafe, Type } from 'typebox';

/**
 * A string enum as `{type: "string", enum: [...]}`: pi-ai's `StringEnum`, inlined so the extension
 * needs no runtime import from pi (a `Type.Union` of literals breaks Google models in pi 0.73).
 */
function stringEnum<const T extends readonly string[]>(
  values: T,
  options: { description: string; default?: T[number] },
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** The arguments an LLM passes to `browser_run_task`; the POST /v1/tasks body. */
export const browserRunTaskParameters = Type.Object(
  {
    instruction: Type.String({
      minLength: 1,
      maxLength: 10_000,
      description:
        'What the browser agent should do, in plain language: one self-contained task with a clear end state and what to report back, e.g. "Open the pricing page and report the monthly price of the Pro plan".',
    }),
    start_url: Type.Optional(
      Type.String({
        pattern: '^https?://',
        maxLength: 8192,
        description:
          'http(s) URL to open before the first step. Give it whenever you know where the task starts; it saves steps.',
      }),
    ),
    surface: Type.Optional(
      stringEnum(['browser', 'desktop'] as const, {
        description:
          '"browser" (default): the agent drives the web page. "desktop": it drives the whole virtual screen of the task\'s clone (headful Chromium and other windows) with mouse and keyboard; start_url still opens first. Needs a controlplane with hostd displays.',
      }),
    ),
    domains: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        minItems: 1,
        maxItems: 100,
        description:
          'Host names the task may visit, e.g. ["example.org", "*.example.org"] (*. matches subdomains); must be within what the operator policy allows. Omit for the policy default.',
      }),
    ),
    credential_mode: Type.Optional(
      stringEnum(['none', 'operator_approved', 'session'] as const, {
        description:
          '"none" (default): never type stored credentials. "operator_approved": stored credentials may be typed after a human operator approves. "session": start logged in with the saved session profile named in `session`.',
      }),
    ),
    session: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$',
        description:
          'The saved session profile to start logged in with (credential_mode "session"); the model never sees its cookies.',
      }),
    ),
    keep_session: Type.Optional(
      Type.Boolean({
        description:
          "Keep this task's browser after it ends (bounded by the policy's idle TTL); the result's session_id then continues in it. Default false.",
      }),
    ),
    session_id: Type.Optional(
      Type.String({
        pattern: '^ks_[A-Za-z0-9_-]{16,64}$',
        description:
          "Continue in the browser an earlier task kept (its result's session_id): same page, same login.",
      }),
    ),
    record: Type.Optional(
      Type.Boolean({
        description: 'Keep a video recording of the task when the policy allows. Default false.',
      }),
    ),
    max_steps: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 500,
        description:
          'Step limit; one step is one screenshot plus a few actions. Default from the controlplane configuration (30 unless changed). Raise it for long flows.',
      }),
    ),
    result_schema: Type.Optional(
      Type.Unsafe<Record<string, unknown>>({
        type: 'object',
        description:
          'JSON Schema (an object schema) the final answer must satisfy; the answer then comes back parsed in result_data. Use it for structured extraction.',
      }),
    ),
    timeout_s: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 86_400,
        description:
          'Wall-clock limit for the whole task, in seconds. When exceeded the task ends with status "error" (TASK_TIMEOUT).',
      }),
    ),
    success_criteria: Type.Optional(
      Type.Object(
        {
          text_contains: Type.Optional(
            Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { maxItems: 20 }),
          ),
          text_absent: Type.Optional(
            Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { maxItems: 20 }),
          ),
          url_matches: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
          visual: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
        },
        {
          additionalProperties: false,
          description:
            'Checked when the model calls finished(): text shown/absent, URL (`*` glob or /regex/), a visual condition. Unmet criteria send the model back to work with what is missing.',
        },
      ),
    ),
    logged_in_check: Type.Optional(
      Type.Object(
        {
          url_matches: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
          text_contains: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
          text_absent: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
          timeout_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 30_000 })),
        },
        {
          additionalProperties: false,
          description:
            'Checked after start_url loads, before the first model step; when it fails, a person is asked to log in (takeover) instead of a blind run.',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

/** Validated `browser_run_task` arguments. */
export type BrowserRunTaskParams = Static<typeof browserRunTaskParameters>;
