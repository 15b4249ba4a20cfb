import { elapsedMs } from '../../clock.js';
import { ModelError } from '../../errors.js';
import type { RefusalKind } from '../../governance/policy/gate-types.js';
import type { StepOutcome } from '../../platform/store/task-records.js';
import { callUsageOf } from '../model/call-usage.js';
import type { ChatMessage } from '../model/chat-types.js';
import type { Conversation } from '../model/conversation.js';
import { describeModelImages, encodeForModel } from '../model/image-encoder.js';
import { toBrowserActions } from '../uitars/index.js';
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
  const { profile } = options;
  const encoding = {
    image: profile.image,
    encoding: options.imageEncoding,
    server: options.modelServer,
  };
  const image = await encodeForModel(screenshot, encoding, deps.images);
  const url = profile.observesUrl
    ? await deps.operator.state(signal).then(
        (state) => state.url,
        () => null,
      )
    : null;
  conversation.addScreenshot(image, url);
  await conversation.prepare();
  const body = conversation.request();
  const messages = Array.isArray(body.messages) ? (body.messages as ChatMessage[]) : [];
  // Aborted (or out of time) while capturing and encoding: no request goes out. A model client
  // is not trusted to refuse a signal that was already aborted when it was called.
  signal?.throwIfAborted();
  const reply = await deps.model.complete({ messages, body }, signal).catch((error: unknown) => {
    // Empty or cut off at max_tokens even after the client's one re-ask: an unusable reply.
    if (error instanceof ModelError && error.code === 'MODEL_EMPTY_REPLY') return error;
    // WebP where the profile's own default is not (the server's identification, or the operator's).
    const unusual = image.mediaType === 'image/webp' && profile.image.format !== 'webp';
    throw unusual ? withImageHint(error, () => describeModelImages(encoding, deps.images)) : error;
  });
  if (reply instanceof ModelError) {
    conversation.addReply({ raw: '', text: '' }); // the turn stays observation/reply alternating
    const note = profile.unusableNote(reply.message);
    return unusable(step, 'parse_error', reply.message, note, conversation, deps);
  }
  const modelMs = elapsedMs(started);
  const { turn, parsed } = profile.readReply({ text: reply.text, body: reply.body ?? null });
  conversation.addReply(typeof turn.raw === 'string' ? { ...turn, raw: capReply(turn.raw) } : turn);

  const stored = capReply(turn.text);
  await emit({
    type: 'prediction-received',
    step,
    text: stored,
    thought: parsed.ok ? parsed.reply.thought : null,
    reflection: parsed.ok ? parsed.reply.reflection : null,
    modelMs,
    requestBytes: reply.requestBytes,
    imageCount: conversation.imagesSent(),
    usage: callUsageOf(reply, body, deps.model.name, modelMs),
  });
  if (!parsed.ok) {
    const { message } = parsed;
    return unusable(
      step,
      'parse_error',
      message,
      profile.unusableNote(message),
      conversation,
      deps,
    );
  }
  const { actions, refused, safety } = parsed.reply;
  for (const refusal of refused) conversation.addNote(refusal.note);
  if (actions.length === 0) {
    const message = refused.map((refusal) => refusal.note).join(' ') || 'the reply has no action';
    return unusable(step, 'plan_error', message, null, conversation, deps);
  }
  const excess = tooManyActions(actions.length);
  if (excess) {
    const note = `Your last reply could not be executed: ${excess}. Reply with one action.`;
    return unusable(step, 'plan_error', excess, note, conversation, deps, 'reply_limit');
  }
  if (safety.length > 0) {
    // The provider's own safety signal: a supervisor decides before anything of the reply runs.
    const verdict = await deps.gate({ step, safety }, signal);
    if (!verdict.allowed) return refusedBySafety(step, verdict.message, verdict.kind, deps);
    conversation.acknowledge(safety);
  }

  const { meta } = screenshot;
  const plan = toBrowserActions(actions, {
    mode:
      profile.coordinates.kind === 'relative'
        ? profile.coordinates
        : { kind: 'image-pixels', width: image.width, height: image.height },
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

/** A flagged reply the supervisor did not approve (or nobody could): the task ends. */
async function refusedBySafety(
  step: number,
  message: string,
  refusal: RefusalKind,
  deps: LoopDeps,
): Promise<StepResult> {
  await deps.emit({
    type: 'step-ended',
    step,
    outcome: 'refused',
    message,
    refusal,
    at: deps.clock.now(),
  });
  return {
    kind: 'terminal',
    result: { status: 'error', summary: null, error: { code: 'APPROVAL_DENIED', message } },
  };
}

async function unusable(
  step: number,
  outcome: StepOutcome,
  message: string,
  note: string | null,
  conversation: Conversation,
  deps: LoopDeps,
  refusal?: RefusalKind,
): Promise<StepResult> {
  if (note !== null) conversation.addNote(note);
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

/**
 * A server that refuses a request carrying WebP may not decode it (llama.cpp, an older Ollama, a
 * server misidentified): the ending says so, and how to send JPEG instead.
 */
function withImageHint(error: unknown, why: () => string): unknown {
  if (!(error instanceof ModelError) || error.code !== 'MODEL_REJECTED') return error;
  const hint = `the screenshots went as ${why()}; a server that cannot decode WebP needs CLAWDIE_MODEL_IMAGE_FORMAT=jpeg`;
  return new ModelError(error.code, `${error.message} (${hint})`, error);
}
