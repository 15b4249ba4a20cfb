// The wait engine as a service for the REST API: input validation, a bounded table of recent
// outcomes, and lookup/cancel by id. The screen is the local browser's or a running task's.
import { z } from 'zod';
import { JudgeUnavailableError } from '../../errors.js';
import { urlPatternSchema } from './url-pattern.js';
import type { WaitEngine } from './wait-engine.js';
import type { JobTarget } from './wait-job.js';
import type { WaitCondition, WaitOutcome } from './wait-types.js';

const text = z.string().min(1).max(1000);

export const waitConditionSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text_contains'), text }),
  z.strictObject({ type: z.literal('text_absent'), text }),
  z.strictObject({ type: z.literal('url_matches'), pattern: urlPatternSchema }),
  z.strictObject({
    type: z.literal('element_present'),
    text: text.optional(),
    name: text.optional(),
    role: text.optional(),
    tag: text.optional(),
  }),
  z.strictObject({
    type: z.literal('stable'),
    ms: z.number().int().min(100).max(600_000),
    afterChange: z.boolean().optional(),
  }),
  z.strictObject({ type: z.literal('visual'), description: text }),
]);

/** `POST /v1/waits` body. */
export const waitInputSchema = z.strictObject({
  conditions: z
    .array(waitConditionSchema)
    .min(1)
    .max(10)
    .describe('All must hold; cheapest are checked first.'),
  timeout_ms: z.number().int().min(100).max(3_600_000).default(60_000),
  block: z.boolean().default(false).describe('Answer only once the wait has settled.'),
  stall_polls: z
    .number()
    .int()
    .min(0)
    .max(10_000)
    .optional()
    .describe(
      'End a visual wait as `stalled` after this many polls of an unchanged screen the judge keeps calling `watching` (0: never; default 20, about 54 s).',
    ),
  task_id: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("Watch this running task's browser (required when tasks run in hostd clones)."),
});
export type WaitInput = z.input<typeof waitInputSchema>;

export type WaitView =
  | { wait_id: string; status: 'watching' }
  | ({ wait_id: string } & Omit<WaitOutcome, 'id'>);

export interface WaitService {
  /** Throws JudgeUnavailableError (400) for a visual condition on an engine without a judge. */
  start(input: z.output<typeof waitInputSchema>): { id: string; outcome: Promise<WaitOutcome> };
  view(id: string): WaitView | null;
  cancel(id: string): boolean;
}

/**
 * `target`: the one screen every wait watches, or a resolver from the optional `task_id` to the
 * screen to watch (throws an AppError, e.g. 404 for a task that is not running).
 */
export function createWaitService(
  engine: WaitEngine,
  target: JobTarget | ((taskId: string | undefined) => JobTarget),
  retain = 500,
): WaitService {
  const running = new Map<string, () => boolean>();
  const done = new Map<string, WaitOutcome>();
  return {
    start(input) {
      if (!engine.hasJudge && input.conditions.some((condition) => condition.type === 'visual'))
        throw new JudgeUnavailableError('a visual wait condition');
      const handle = engine.start({
        conditions: input.conditions as WaitCondition[],
        timeoutMs: input.timeout_ms,
        target: typeof target === 'function' ? target(input.task_id) : target,
        ...(input.stall_polls === undefined ? {} : { settings: { stallPolls: input.stall_polls } }),
      });
      running.set(handle.id, handle.cancel);
      const outcome = handle.outcome.then((result) => {
        running.delete(handle.id);
        done.set(handle.id, result);
        if (done.size > retain) done.delete(done.keys().next().value as string);
        return result;
      });
      return { id: handle.id, outcome };
    },
    view(id) {
      const result = done.get(id);
      if (result) {
        const { id: _id, ...rest } = result;
        return { wait_id: id, ...rest };
      }
      return running.has(id) ? { wait_id: id, status: 'watching' } : null;
    },
    cancel: (id) => running.get(id)?.() ?? false,
  };
}
