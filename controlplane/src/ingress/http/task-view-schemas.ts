// The shapes `/v1/tasks` answers with (routes and OpenAPI). The view functions in task-views.ts
// are typed with these, so a field added to one and not the other fails to compile.
import { networkEvidenceSchema } from '@clawdie/kit/jail-api';
import { z } from 'zod';
import { taskStatusValues } from '../../platform/store/task-records.js';
import { compactResultSchema } from '../../tasks/task-input.js';
import { taskUsageSchema } from '../../tasks/task-usage.js';

const isoTime = z.string().describe('ISO 8601 time');
const point = z.object({ x: z.number(), y: z.number().nullable() });

export const taskViewSchema = z.object({
  trace_id: z.string(),
  instruction: z.string(),
  start_url: z.string().nullable(),
  status: z.enum(taskStatusValues),
  step_count: z.number().int(),
  max_steps: z.number().int(),
  model: z.string(),
  /** `1.5` / `1.0` (UI-TARS), else the profile's convention: `image-pixels`, `relative-1000`. */
  coordinate_mode: z.string(),
  /** The model profile the task ran with (docs/models.md). */
  model_profile: z.string(),
  created_at: isoTime.nullable(),
  started_at: isoTime.nullable(),
  ended_at: isoTime.nullable(),
  usage: taskUsageSchema
    .nullable()
    .describe('model usage totals so far (updated per call); null before the first call'),
});

/** A step's model call (docs/models.md, "Usage and cost"). */
export const stepUsageSchema = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  estimated: z.boolean().describe('true when the server sent no usage: the tokens are estimated'),
  images: z.number().int(),
  image_bytes: z.number().int(),
  queue_ms: z.number().describe("waiting for the model endpoint's concurrency slot"),
  first_token_ms: z
    .number()
    .nullable()
    .describe('request sent to first content delta; null when the reply was not streamed'),
  total_ms: z.number().describe('the whole call: queue, attempts, retry waits'),
});

export const stepViewSchema = z.object({
  index: z.number().int(),
  outcome: z
    .string()
    .describe(
      'pending (in progress), acted, finished, call_user, refused, needs_user, aborted (the task was aborted during it), failed (the task ended in an error during it) or an error kind',
    ),
  outcome_message: z.string().nullable(),
  thought: z.string().nullable(),
  reflection: z.string().nullable(),
  raw_prediction: z.string().nullable(),
  screenshot: z
    .object({
      width: z.number().nullable(),
      height: z.number().nullable(),
      device_pixel_ratio: z.number().nullable(),
    })
    .nullable(),
  timings_ms: z.object({
    capture: z.number().nullable(),
    model: z.number().nullable(),
    execute: z.number().nullable(),
  }),
  model_request_bytes: z.number().nullable(),
  usage: stepUsageSchema.nullable().describe("the step's model call; null when it got no reply"),
  network: networkEvidenceSchema
    .nullable()
    .describe(
      'the document, form and XHR/fetch requests the step caused (method, URL without query values, status, timing, bytes), the newest 50; null when none were reported',
    ),
  started_at: isoTime.nullable(),
  ended_at: isoTime.nullable(),
});

export const actionViewSchema = z.object({
  index: z.number().int(),
  type: z.string(),
  model_action: z.unknown(),
  action: z.unknown(),
  screen_point: point.nullable(),
  css_point: point.nullable(),
  status: z.enum(['ok', 'error', 'skipped']),
  error: z.object({ code: z.string(), message: z.string().nullable() }).nullable(),
  duration_ms: z.number().nullable(),
  navigated: z.boolean(),
});

export const logViewSchema = z.object({
  at: isoTime.nullable(),
  level: z.enum(['debug', 'info', 'warn', 'error']),
  event: z.string(),
  message: z.string(),
  data: z.unknown(),
});

export const taskListSchema = z.object({
  tasks: z.array(taskViewSchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});

/** The approval an `awaiting_approval` task waits for; answer it at /v1/approvals/{id}. */
export const pendingApprovalSchema = z.object({
  id: z.string(),
  kind: z
    .string()
    .describe('credential, navigation, action, call_user, model_safety or file_upload'),
  reason: z.string(),
  action: z
    .unknown()
    .describe('the action waiting for the answer (null for call_user, model_safety, file_upload)'),
});

export const taskDetailSchema = z.object({
  task: taskViewSchema,
  result: compactResultSchema.nullable(),
  steps: z.array(stepViewSchema),
  approval: pendingApprovalSchema
    .nullable()
    .describe('the pending approval while the task is awaiting_approval, else null'),
  needs_user: z
    .object({ reason: z.string().describe('call_user, stuck, login, otp or captcha') })
    .nullable()
    .describe(
      'why a person is needed while the task is needs_user (as its SSE status says), else null',
    ),
});

export const stepDetailSchema = z.object({
  step: stepViewSchema,
  actions: z.array(actionViewSchema),
  logs: z.array(logViewSchema),
});

export type TaskView = z.output<typeof taskViewSchema>;
export type StepView = z.output<typeof stepViewSchema>;
export type StepUsageView = z.output<typeof stepUsageSchema>;
export type ActionView = z.output<typeof actionViewSchema>;
export type LogView = z.output<typeof logViewSchema>;
