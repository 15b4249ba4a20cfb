// A task's model usage: the totals of its calls (the task model's, one per step, and the vision
// judge's) and their cost where CLAWDIE_MODEL_PRICES names the models (docs/models.md, "Usage and
// cost"). The totals are the compact result's optional `usage` — never images.
import { z } from 'zod';
import type { CallUsage } from '../agent/model/call-usage.js';
import type { VisualJudge } from '../browser/wait/wait-types.js';
import type { ModelPrice, ModelPrices } from '../config-prices.js';

const count = z.number().int().min(0);

export const taskUsageSchema = z.object({
  model_calls: count.describe('calls of the task model that got a reply (one per step)'),
  judge_calls: count.describe('calls of the vision judge (visual waits and criteria)'),
  prompt_tokens: count,
  completion_tokens: count,
  estimated: z
    .boolean()
    .describe('true when a server sent no usage and some tokens are estimated (docs/models.md)'),
  images: count.describe('images sent, over all calls'),
  image_bytes: count,
  queue_ms: z.number().describe("waiting for the model endpoint's concurrency slot"),
  model_ms: z.number().describe('in model calls, the queue included'),
  cost: z
    .object({ amount: z.number(), currency: z.string() })
    .nullable()
    .describe('null unless CLAWDIE_MODEL_PRICES prices every model called, in one currency'),
});
export type TaskUsage = z.infer<typeof taskUsageSchema>;

/** The price of one call: tokens × price per million, estimated tokens included. */
export function callCost(call: CallUsage, price: ModelPrice): number {
  return (
    (call.promptTokens * price.input_per_million +
      call.completionTokens * price.output_per_million) /
    1_000_000
  );
}

/** Sums a task's calls; `totals()` is null until the first call. */
export function createUsageMeter(prices: ModelPrices) {
  let totals: TaskUsage | null = null;
  let amount = 0;
  let currency: string | null = null;
  let priced = true;
  return {
    add(call: CallUsage, role: 'model' | 'judge'): TaskUsage {
      const sum: TaskUsage = totals ?? {
        model_calls: 0,
        judge_calls: 0,
        prompt_tokens: 0,
        completion_tokens: 0,
        estimated: false,
        images: 0,
        image_bytes: 0,
        queue_ms: 0,
        model_ms: 0,
        cost: null,
      };
      if (role === 'model') sum.model_calls += 1;
      else sum.judge_calls += 1;
      sum.prompt_tokens += call.promptTokens;
      sum.completion_tokens += call.completionTokens;
      sum.estimated ||= call.estimated;
      sum.images += call.images;
      sum.image_bytes += call.imageBytes;
      sum.queue_ms = tenth(sum.queue_ms + call.queueMs);
      sum.model_ms = tenth(sum.model_ms + call.totalMs);
      const price = prices[call.model];
      if (!price || (currency !== null && currency !== price.currency)) priced = false;
      else {
        currency = price.currency;
        amount += callCost(call, price);
      }
      sum.cost = priced && currency ? { amount: micro(amount), currency } : null;
      totals = sum;
      return { ...sum };
    },
    totals: (): TaskUsage | null => (totals ? { ...totals } : null),
  };
}

export type UsageMeter = ReturnType<typeof createUsageMeter>;

/** The task's view of the process's judge: each verdict's call is told to `onCall`. */
export function meteredJudge(
  judge: VisualJudge | undefined,
  onCall: (call: CallUsage) => void,
): VisualJudge | undefined {
  if (!judge) return undefined;
  return {
    judge: (request, signal, hooks) =>
      judge.judge(request, signal, {
        onUsage(call) {
          onCall(call);
          hooks?.onUsage?.(call);
        },
      }),
  };
}

const tenth = (ms: number) => Math.round(ms * 10) / 10;
/** Costs are kept to a millionth of the currency unit. */
const micro = (value: number) => Math.round(value * 1_000_000) / 1_000_000;

/**
 * The totals in one line (`clawdie run`'s stderr, the MCP text, the dashboard), e.g. `3 model
 * calls · 4210 prompt + 96 completion tokens (estimated) · 3 images, 182 KB · queue 0 ms · model
 * 1.42 s · cost 0.0086 USD`.
 */
export function describeUsage(usage: TaskUsage): string {
  const calls = `${usage.model_calls} model call${usage.model_calls === 1 ? '' : 's'}${usage.judge_calls ? ` + ${usage.judge_calls} judge` : ''}`;
  const tokens = `${usage.prompt_tokens} prompt + ${usage.completion_tokens} completion tokens${usage.estimated ? ' (estimated)' : ''}`;
  const images = `${usage.images} image${usage.images === 1 ? '' : 's'}, ${kilobytes(usage.image_bytes)}`;
  const cost = usage.cost ? `cost ${usage.cost.amount} ${usage.cost.currency}` : 'cost unknown';
  return [
    calls,
    tokens,
    images,
    `queue ${ms(usage.queue_ms)}`,
    `model ${ms(usage.model_ms)}`,
    cost,
  ].join(' · ');
}

const kilobytes = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
const ms = (value: number) =>
  value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
