import { elapsedMs } from '../../clock.js';
import { ModelError } from '../../errors.js';
import type { RefusalKind } from '../../governance/policy/gate-types.js';
import type { StepOutcome } from '../../platform/store/task-records.js';
import { callUsageOf } from '../model/call-usage.js';
import type { Conversation } from '../model/conversation.js';
import { encodeForModel } from '../model/image-encoder.js';
import { parsePrediction, toBrowserActions } from '../uitars/index.js';
import { executePlan } from './execute-plan.js';
import type { LoopDeps, LoopOptions, StepResult } from './loop-types.js';
import { capReply, tooManyActions } from './reply-limits.js';

/**
 * One loop iteration: capture, ask the model, parse, map coordinates, execute. Unusable replies
 * and failed actions become notes for the model's next turn; transport failures throw.
 */
export async function runStep(
  step: number,
  conversation: Conversation,
  options: LoopOptions,
  deps: LoopDeps,
): Promise<StepResult> {
  const { emit, signal } = deps;
  await emit({ type: 'step-started', step, at: deps.clock.now() });

  let started = performance.now();
  const screenshot = await deps.operator.screenshot(signal);
  const captureMs = elapsedMs(started);
  await emit({ type: 'screenshot-taken', step, screenshot, captureMs });
  // Page signals (login wall, one-time code, CAPTCHA): a person is asked before the model sees it.
  const needed = deps.handoff ? await deps.handoff.detect(signal) : null;
  if (needed) {
    const message = `a person is needed: ${needed.replaceAll('_', ' ')}`;
    await emit({ type: 'step-ended', step, outcome: 'needs_user', message, at: deps.clock.now() });
    return { kind: 'handoff', reason: needed, summary: message };
  }

  started = performance.now();
  const version = options.coordinateMode;
  conversation.addScreenshot(
    await encodeForModel(screenshot, { version, jpegQuality: options.jpegQuality }, deps.images),
  );
  const messages = conversation.messages();
  const reply = await deps.model.complete({ messages }, signal).catch((error: unknown) => {
    // Empty or cut off at max_tokens even after the client's one re-ask: an unusable reply.
    if (error instanceof ModelError && error.code === 'MODEL_EMPTY_REPLY') return error;
    throw error;
  });
  if (reply instanceof ModelError) {
    conversation.addReply(''); // the turn stays user/assistant alternating
    return unusable(
      step,
      'parse_error',
      reply.message,
      formatNote(reply.message),
      conversation,
      deps,
    );
  }
  const modelMs = elapsedMs(started);
  const stored = capReply(reply.text);
  conversation.addReply(stored);

  const parsed = parsePrediction(reply.text);
  await emit({
    type: 'prediction-received',
    step,
    text: stored,
    thought: parsed.success ? parsed.data.thought : null,
    reflection: parsed.success ? parsed.data.reflection : null,
    modelMs,
    requestBytes: reply.requestBytes,
    imageCount: countImages(messages),
    usage: callUsageOf(reply, { messages }, deps.model.name, modelMs),
  });
  if (!parsed.success) {
    const { message } = parsed.error;
    return unusable(step, 'parse_error', message, formatNote(message), conversation, deps);
  }
  const excess = tooManyActions(parsed.data.actions.length);
  if (excess) {
    const note = `Your last reply could not be executed: ${excess}. Reply with one action.`;
    return unusable(step, 'plan_error', excess, note, conversation, deps, 'reply_limit');
  }

  const { meta } = screenshot;
  const plan = toBrowserActions(parsed.data.actions, {
    mode: version,
    screenshot: { width: meta.imageWidth, height: meta.imageHeight },
    devicePixelRatio: meta.devicePixelRatio,
    viewport: { width: meta.viewportWidth, height: meta.viewportHeight },
    waitMs: options.waitMs,
    scrollAmount: options.scrollAmount,
  });
  if (!plan.success) {
    const note = `Your last action could not be executed: ${plan.error.message}`;
    return unusable(step, 'plan_error', plan.error.message, note, conversation, deps);
  }
  return executePlan(step, plan.steps, conversation, options, deps);
}

const formatNote = (why: string) =>
  `Your last reply could not be used (${why}). Answer in the format "Thought: ...\\nAction: ..." with one of the listed actions.`;

async function unusable(
  step: number,
  outcome: StepOutcome,
  message: string,
  note: string,
  conversation: Conversation,
  deps: LoopDeps,
  refusal?: RefusalKind,
): Promise<StepResult> {
  conversation.addNote(note);
  await deps.emit({
    type: 'step-ended',
    step,
    outcome,
    message,
    ...(refusal ? { refusal } : {}),
    at: deps.clock.now(),
  });
  return { kind: 'unusable', message };
}

function countImages(messages: { content: unknown }[]): number {
  let images = 0;
  for (const message of messages) {
    if (Array.isArray(message.content)) {
      images += message.content.filter(
        (part: { type?: string }) => part.type === 'image_url',
      ).length;
    }
  }
  return images;
}
