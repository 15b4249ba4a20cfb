// The natural-language visual condition: a vision model (any OpenAI-compatible VisionModel) sees
// the job's recent frames and earlier verdicts, each with its age, and ends its reply with
// `FINAL_JSON: {"decision":"resolved|watching|partial","reason":"..."}`. Parsing is forgiving
// (code fences, single quotes, trailing commas, synonyms) and falls back to a legacy `YES:`/`NO:`
// line (DETM's smart-wait format); anything else counts as `watching`, never as resolved.

import { callUsageOf } from '../../agent/model/call-usage.js';
import type { ContentPart, VisionModel } from '../../agent/model/chat-types.js';
import { isAbortError, ModelError } from '../../errors.js';
import type {
  VisualDecision,
  VisualJudge,
  VisualJudgeRequest,
  VisualVerdict,
} from './wait-types.js';

const PROMPT = `You watch a computer screen and decide whether a condition holds.
Condition: {condition}

The images are screenshots of the same screen, oldest first, taken {ages}; the last one is the screen now.
{history}
Answer in one or two sentences, then end with exactly one line:
FINAL_JSON: {"decision":"resolved|watching|partial","reason":"<short reason>"}
- resolved: the condition clearly holds on the last screenshot.
- partial: it is starting to happen (loading, progress, half-rendered) but does not hold yet.
- watching: it does not hold.`;

/**
 * Builds a judge over a vision model; each verdict is one chat completion, bounded by `timeoutMs`
 * (every attempt of the model client included; ModelError MODEL_TIMEOUT past it).
 */
export function createModelVisualJudge(
  model: VisionModel,
  options: { timeoutMs?: number } = {},
): VisualJudge {
  return {
    async judge(request, signal, hooks): Promise<VisualVerdict> {
      const timeout = options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined;
      const bounded = timeout && signal ? AbortSignal.any([signal, timeout]) : (timeout ?? signal);
      try {
        signal?.throwIfAborted(); // an aborted wait asks no model (agent/loop/run-step.ts too)
        const started = performance.now();
        const asked = { messages: [{ role: 'user' as const, content: parts(request) }] };
        const reply = await model.complete(asked, bounded);
        hooks?.onUsage?.(callUsageOf(reply, asked, model.name, performance.now() - started));
        return parseVisualVerdict(reply.text);
      } catch (error) {
        if (timeout?.aborted && !signal?.aborted && isAbortError(error))
          throw new ModelError(
            'MODEL_TIMEOUT',
            `the judge did not answer within ${options.timeoutMs} ms`,
          );
        throw error;
      }
    },
  };
}

function parts(request: VisualJudgeRequest): ContentPart[] {
  const ago = (at: number) => `${((request.now - at) / 1000).toFixed(1)} s ago`;
  const history =
    request.history.length === 0
      ? ''
      : `Your earlier verdicts on this condition, oldest first: ${request.history
          .map((entry) => `${entry.decision} (${entry.reason}) ${ago(entry.at)}`)
          .join('; ')}.\n`;
  const text = PROMPT.replace('{condition}', request.condition)
    .replace('{ages}', listOf(request.frames.map((frame) => ago(frame.at))))
    .replace('{history}', history);
  return [
    { type: 'text', text },
    ...request.frames.map(
      (frame): ContentPart => ({
        type: 'image_url',
        image_url: { url: `data:image/jpeg;base64,${frame.jpeg.toString('base64')}` },
      }),
    ),
  ];
}

/** "a", "a and b", "a, b and c". */
function listOf(items: string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

const SYNONYMS: Record<string, VisualDecision> = {
  resolved: 'resolved',
  resolve: 'resolved',
  done: 'resolved',
  yes: 'resolved',
  true: 'resolved',
  met: 'resolved',
  watching: 'watching',
  watch: 'watching',
  no: 'watching',
  false: 'watching',
  waiting: 'watching',
  not_met: 'watching',
  partial: 'partial',
  partially: 'partial',
  in_progress: 'partial',
  progress: 'partial',
};

/** Parses a judge reply; never throws. Unusable replies are `watching`. */
export function parseVisualVerdict(text: string): VisualVerdict {
  const fromJson = parseFinalJson(text);
  if (fromJson) return fromJson;
  const legacy = [...text.matchAll(/^\s*\**\s*(YES|NO)\s*\**\s*[:\-–]\s*(.*)$/gim)].at(-1);
  if (legacy) {
    const decision = (legacy[1] as string).toUpperCase() === 'YES' ? 'resolved' : 'watching';
    return { decision, reason: (legacy[2] as string).trim() || 'legacy answer' };
  }
  const bare = /^\s*(YES|NO)\b/i.exec(text.trim());
  if (bare) {
    return {
      decision: (bare[1] as string).toUpperCase() === 'YES' ? 'resolved' : 'watching',
      reason: text.trim(),
    };
  }
  return { decision: 'watching', reason: `unparseable judge reply: ${text.slice(0, 120)}` };
}

function parseFinalJson(text: string): VisualVerdict | null {
  const marker = text.toUpperCase().lastIndexOf('FINAL_JSON');
  if (marker === -1) return null;
  const rest = text.slice(marker + 'FINAL_JSON'.length);
  const open = rest.indexOf('{');
  if (open === -1) return null;
  const close = matchingBrace(rest, open);
  const body = rest.slice(open, close === -1 ? undefined : close + 1);
  const value = parseLoose(body);
  const raw = typeof value?.decision === 'string' ? value.decision : regexField(body, 'decision');
  if (!raw) return null;
  const decision =
    SYNONYMS[
      raw
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, '_')
    ];
  if (!decision) return null;
  const reason =
    typeof value?.reason === 'string' ? value.reason : (regexField(body, 'reason') ?? '');
  return { decision, reason };
}

function matchingBrace(text: string, open: number): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i;
  }
  return -1;
}

function parseLoose(body: string): Record<string, unknown> | null {
  for (const candidate of [body, body.replace(/'/g, '"').replace(/,\s*([}\]])/g, '$1')]) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (value && typeof value === 'object') return value as Record<string, unknown>;
    } catch {
      // try the next, looser form
    }
  }
  return null;
}

function regexField(body: string, field: string): string | null {
  const match = new RegExp(`["']?${field}["']?\\s*:\\s*["']?([^"',}]+)`, 'i').exec(body);
  return match ? (match[1] as string).trim() : null;
}
