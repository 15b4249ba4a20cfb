/**
 * Loop and stuck detection for the agent loop, after browser-use's ActionLoopDetector
 * (peers.md §0.1) adapted to a pixel agent: a window of normalised action hashes, plus a
 * screen-fingerprint stagnation count (actions that leave the screen unchanged). Both escalate
 * through nudges (notes for the model) to a stop. Task level: no visible progress for
 * `stuckAfterMs` yields one stuck report (re-armed by progress) for supervisors.
 * Pure state over injected observations and times; no I/O.
 */
import { diffThumbnails, type Thumbnail } from '../../browser/wait/frame-diff.js';
import { describeTurn } from './loop-guard-hash.js';

export interface LoopGuardOptions {
  /** How many recent turns the repeat count looks at. */
  window: number;
  /** Repeat counts (same normalised turn within the window) that trigger nudges 1, 2, 3… */
  repeatNudgeAt: readonly number[];
  /** Repeat count that ends the task. */
  repeatStopAt: number;
  /** Consecutive acting steps with an unchanged screen that trigger nudges. */
  stagnationNudgeAt: readonly number[];
  stagnationStopAt: number;
  /** Model-unit bucket for coordinates when hashing (clicks a few pixels apart are "the same"). */
  coordinateBucket: number;
  /** No visible progress for this long → a task-stuck report (0 disables). */
  stuckAfterMs: number;
  /** How a stopped task ends: `error` with code STUCK, or `call_user` asking for help. */
  onStop: 'error' | 'call_user';
}

export const DEFAULT_LOOP_GUARD: Readonly<LoopGuardOptions> = Object.freeze({
  window: 20,
  repeatNudgeAt: [3, 5, 7],
  repeatStopAt: 9,
  stagnationNudgeAt: [3, 5, 7],
  stagnationStopAt: 9,
  coordinateBucket: 20,
  stuckAfterMs: 180_000,
  onStop: 'error',
});

export type GuardReason = 'repeat' | 'stagnation';

export type GuardVerdict =
  | { kind: 'ok' }
  | { kind: 'nudge'; reason: GuardReason; level: number; count: number; message: string }
  | { kind: 'stop'; reason: GuardReason; count: number; message: string };

export interface StuckReport {
  idleMs: number;
  step: number;
  /** What a supervisor needs to resume: the task, where it is, what it kept trying. */
  summary: string;
}

/** Stateful guard for one task run. */
export class LoopGuard {
  readonly #options: LoopGuardOptions;
  readonly #hashes: (string | null)[] = [];
  #lastScreen: Thumbnail | null = null;
  #lastActing = false;
  #stagnant = 0;
  #lastProgressAt: number;
  #stuckReported = false;
  #lastThought: string | null = null;
  #nudges = 0;
  /** Highest nudge level sent since the last reset. */
  #nudged = 0;

  constructor(options: LoopGuardOptions, startedAt: number) {
    this.#options = options;
    this.#lastProgressAt = startedAt;
  }

  /** A new screenshot (start of a step). Compares it with the previous one. */
  observeScreen(thumbnail: Thumbnail, at: number): void {
    const previous = this.#lastScreen;
    this.#lastScreen = thumbnail;
    if (previous === null) return;
    const changed = diffThumbnails(previous, thumbnail).changed;
    if (changed) {
      this.#lastProgressAt = at;
      this.#stuckReported = false;
      this.#stagnant = 0;
    } else if (this.#lastActing) {
      this.#stagnant += 1;
    }
  }

  /** The normalised turn of a step (null for passive or unparseable turns) and its thought. */
  observeTurn(hash: string | null, thought: string | null): void {
    this.#hashes.push(hash);
    if (this.#hashes.length > this.#options.window) this.#hashes.shift();
    this.#lastActing = hash !== null;
    if (thought) this.#lastThought = thought;
  }

  /**
   * After a step: whether to nudge the model, stop, or carry on. Repeats and stagnation share
   * one escalation ladder (they usually describe the same stuck behaviour); a stop of either wins.
   */
  assess(): GuardVerdict {
    const current = this.#hashes.at(-1) ?? null;
    const what = current ? describeTurn(current) : 'the same action';
    const repeats = current === null ? 0 : this.#hashes.filter((h) => h === current).length;
    const o = this.#options;
    if (repeats >= o.repeatStopAt) {
      const message = `stuck: the model repeated ${what} ${repeats} times in its last ${this.#hashes.length} turns`;
      return { kind: 'stop', reason: 'repeat', count: repeats, message };
    }
    if (this.#stagnant >= o.stagnationStopAt) {
      const message = `stuck: ${this.#stagnant} steps in a row left the screen unchanged (last: ${what})`;
      return { kind: 'stop', reason: 'stagnation', count: this.#stagnant, message };
    }
    const repeatLevel = o.repeatNudgeAt.filter((at) => repeats >= at).length;
    const stagnationLevel = o.stagnationNudgeAt.filter((at) => this.#stagnant >= at).length;
    const reason: GuardReason = repeatLevel >= stagnationLevel ? 'repeat' : 'stagnation';
    const level = Math.max(repeatLevel, stagnationLevel);
    if (level === 0) this.#nudged = 0;
    if (level <= this.#nudged) return { kind: 'ok' };
    this.#nudged = level;
    this.#nudges += 1;
    const count = reason === 'repeat' ? repeats : this.#stagnant;
    return { kind: 'nudge', reason, level, count, message: nudgeText(reason, level, count, what) };
  }

  /** A task-level stuck report, once per idle period; null while progressing. */
  stuck(at: number, step: number, instruction: string): StuckReport | null {
    const idleMs = at - this.#lastProgressAt;
    if (this.#options.stuckAfterMs <= 0 || this.#stuckReported) return null;
    if (idleMs < this.#options.stuckAfterMs) return null;
    this.#stuckReported = true;
    return { idleMs, step, summary: this.#summary(step, idleMs, instruction) };
  }

  #summary(step: number, idleMs: number, instruction: string): string {
    const recent = this.#hashes.filter((h): h is string => h !== null).slice(-5);
    const lines = [
      `Task: ${instruction.slice(0, 300)}`,
      `At step ${step}, no visible progress for ${Math.round(idleMs / 1000)} s (${this.#nudges} nudges sent).`,
      recent.length > 0
        ? `Recent actions: ${recent.map(describeTurn).join(' | ')}`
        : 'Recent actions: none',
    ];
    if (this.#lastThought) lines.push(`Last thought: ${this.#lastThought.slice(0, 300)}`);
    return lines.join('\n');
  }
}

function nudgeText(reason: GuardReason, level: number, count: number, what: string): string {
  const observed =
    reason === 'repeat'
      ? `You have now tried ${what} ${count} times.`
      : `Your last ${count} actions did not change the screen.`;
  if (level === 1)
    return `${observed} It is not working; look at the screenshot again and try something different.`;
  if (level === 2) {
    return `${observed} Stop repeating it. Try another element, scroll to reveal the target, use the keyboard, or go back.`;
  }
  return `${observed} This is your last chance: take a clearly different approach, or call call_user() if you need help. Repeating again ends the task.`;
}
