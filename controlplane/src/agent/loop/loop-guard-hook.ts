// Connects the LoopGuard to the loop through its events: screenshots feed the screen fingerprint,
// predictions feed the action hashes; after each step the loop asks for a verdict.

import { thumbnailOfImage } from '../../browser/wait/frame-diff.js';
import type { Conversation } from '../model/conversation.js';
import { parsePrediction } from '../uitars/index.js';
import { DEFAULT_LOOP_GUARD, LoopGuard, type LoopGuardOptions } from './loop-guard.js';
import { normaliseTurn } from './loop-guard-hash.js';
import type { LoopDeps, LoopEvent, LoopResult } from './loop-types.js';

export interface GuardHook {
  /** The loop's emit, observing events on the way through. */
  emit: LoopDeps['emit'];
  /** After a step: adds a nudge note, emits task-stuck, or returns the stopping result. */
  afterStep(step: number): Promise<Omit<LoopResult, 'stepCount'> | null>;
}

/** Builds the hook; `options === false` disables the guard (events pass through untouched). */
export function createGuardHook(
  options: Partial<LoopGuardOptions> | false | undefined,
  instruction: string,
  conversation: Conversation,
  deps: LoopDeps,
): GuardHook {
  if (options === false) return { emit: deps.emit, afterStep: async () => null };
  const settings: LoopGuardOptions = { ...DEFAULT_LOOP_GUARD, ...options };
  const guard = new LoopGuard(settings, deps.clock.now());

  async function emit(event: LoopEvent): Promise<void> {
    if (event.type === 'screenshot-taken') {
      try {
        guard.observeScreen(
          await thumbnailOfImage(event.screenshot.jpeg, deps.images),
          deps.clock.now(),
        );
      } catch {
        // An undecodable frame is the model's problem to report, not the guard's.
      }
    } else if (event.type === 'prediction-received') {
      const parsed = parsePrediction(event.text);
      const hash = parsed.success
        ? normaliseTurn(parsed.data.actions, settings.coordinateBucket)
        : null;
      guard.observeTurn(hash, event.thought);
    }
    await deps.emit(event);
  }

  async function afterStep(step: number): Promise<Omit<LoopResult, 'stepCount'> | null> {
    const at = deps.clock.now();
    const stuck = guard.stuck(at, step, instruction);
    if (stuck)
      await deps.emit({
        type: 'task-stuck',
        step,
        at,
        idleMs: stuck.idleMs,
        summary: stuck.summary,
      });
    const verdict = guard.assess();
    if (verdict.kind === 'ok') return null;
    if (verdict.kind === 'nudge') {
      conversation.addNote(verdict.message);
      await deps.emit({
        type: 'loop-nudged',
        step,
        reason: verdict.reason,
        level: verdict.level,
        count: verdict.count,
        message: verdict.message,
      });
      return null;
    }
    await deps.emit({
      type: 'loop-stopped',
      step,
      reason: verdict.reason,
      message: verdict.message,
    });
    if (settings.onStop === 'call_user') {
      return {
        status: 'call_user',
        summary: `I am stuck and need help: ${verdict.message}`,
        error: null,
      };
    }
    return { status: 'error', summary: null, error: { code: 'STUCK', message: verdict.message } };
  }

  return { emit, afterStep };
}
