// The usage of one model call — tokens (the server's, or estimated), images, and where its time
// went — as the client reports it in ModelReply and the trace keeps it (docs/models.md, "Usage
// and cost").
import type { Completion } from './attempt-result.js';
import type { ModelReply, ModelTiming } from './chat-types.js';
import { estimateTokens, measureRequest } from './usage-estimate.js';

/** One model call as the trace records it (a step's call, or one of the judge's). */
export interface CallUsage {
  /** The model name the call went to (the key of the price table). */
  model: string;
  promptTokens: number;
  completionTokens: number;
  /** True when the server sent no `usage` and the tokens are the estimate. */
  estimated: boolean;
  images: number;
  imageBytes: number;
  queueMs: number;
  firstTokenMs: number | null;
  totalMs: number;
}

/** A tenth of a millisecond is precise enough for every latency Clawdie reports. */
const tenth = (ms: number) => Math.round(ms * 10) / 10;

/** The clock of one call: `queued` wraps each wait for an endpoint slot, `done` reads the split. */
export function startCallTiming() {
  const started = performance.now();
  let queueMs = 0;
  return {
    async queued<T>(slot: Promise<T>): Promise<T> {
      const waiting = performance.now();
      try {
        return await slot;
      } finally {
        queueMs += performance.now() - waiting;
      }
    },
    done(firstTokenMs: number | null): ModelTiming {
      return {
        queueMs: tenth(queueMs),
        firstTokenMs: firstTokenMs === null ? null : tenth(firstTokenMs),
        totalMs: tenth(performance.now() - started),
      };
    },
  };
}

export type CallTiming = ReturnType<typeof startCallTiming>;

/** The reply of a call that succeeded, from its completion and the body that was sent. */
export function replyOf(
  completion: Completion,
  payload: unknown,
  requestBytes: number,
  timing: CallTiming,
): ModelReply {
  const measure = measureRequest(payload);
  const usage = completion.usage
    ? { ...completion.usage, estimated: false }
    : { ...estimateTokens(measure, completion.text), estimated: true };
  return {
    text: completion.text,
    body: completion.body ?? null,
    requestBytes,
    usage,
    timing: timing.done(completion.firstTokenMs ?? null),
    images: { count: measure.images, bytes: measure.imageBytes },
  };
}

/**
 * The call's usage for the trace: what the reply reports, and for a model that reports less (a
 * replay, a test double) the estimate from `request` and `elapsedMs` as its total time.
 */
export function callUsageOf(
  reply: ModelReply,
  request: unknown,
  model: string,
  elapsedMs: number,
): CallUsage {
  const measure = reply.usage && reply.images ? null : measureRequest(request);
  const usage = reply.usage ?? {
    ...estimateTokens(measure ?? measureRequest(request), reply.text),
    estimated: true,
  };
  const images = reply.images ?? {
    count: measure?.images ?? 0,
    bytes: measure?.imageBytes ?? 0,
  };
  const timing = reply.timing ?? { queueMs: 0, firstTokenMs: null, totalMs: tenth(elapsedMs) };
  return {
    model,
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    estimated: usage.estimated,
    images: images.count,
    imageBytes: images.bytes,
    ...timing,
  };
}
