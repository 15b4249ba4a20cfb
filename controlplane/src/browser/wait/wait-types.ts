/** Types of the wait engine: conditions, the ports it watches through, and job outcomes. */

import type { PageElement, PageState } from '@clawdie/kit/jail-api';
import type { CallUsage } from '../../agent/model/call-usage.js';

/** One condition; a wait holds when all of its conditions hold. Cheapest are checked first. */
export type WaitCondition =
  | { type: 'text_contains'; text: string }
  | { type: 'text_absent'; text: string }
  /** `*` globs (`https://shop.test/orders/*`) or a `/regex/flags` literal. */
  | { type: 'url_matches'; pattern: string }
  /** Some visible interactive element matches every given field (case-insensitive substring). */
  | { type: 'element_present'; text?: string; name?: string; role?: string; tag?: string }
  /**
   * The screen has not changed for `ms` (with `afterChange`, only once it changed at least once).
   * With `quickMs` and a page probe, `quickMs` of quiet is enough once the page also reports
   * nothing loading and its network idle for at least as long (page signals, issue 24).
   */
  | { type: 'stable'; ms: number; afterChange?: boolean; quickMs?: number }
  /** A natural-language condition judged by a vision model on the screen. */
  | { type: 'visual'; description: string };

/** Page-level reads (the jail-service's CDP state). `text`/`elements` are optional capabilities. */
export interface PageProbe {
  state(signal?: AbortSignal): Promise<PageState>;
  /** Visible text of the page, as far as the adapter can see it. */
  text?(signal?: AbortSignal): Promise<string>;
  elements?(signal?: AbortSignal): Promise<PageElement[]>;
}

/** Screen frames of one display (a browser viewport or an X display). */
export interface FrameSource {
  /** Identifies the display: captures with the same key are serialised and shared. */
  readonly key: string;
  /** A JPEG (or PNG) of the screen now. */
  capture(signal?: AbortSignal): Promise<Buffer>;
}

export type VisualDecision = 'resolved' | 'watching' | 'partial';

export interface VisualVerdict {
  decision: VisualDecision;
  reason: string;
}

/** One verdict of a job's judge on one condition, at the engine's clock. */
export interface VerdictEntry extends VisualVerdict {
  at: number;
}

/** A frame the judge sees: a JPEG of the screen and when it was captured (the engine's clock). */
export interface JudgeFrame {
  jpeg: Buffer;
  at: number;
}

/**
 * What the judge decides on, with its temporal context: the frames of the condition's last few
 * evaluations and the verdicts it gave on them, so it can tell progress from a still screen.
 */
export interface VisualJudgeRequest {
  condition: string;
  /** Recent frames (at evaluation times), oldest first; the last is the screen now. */
  frames: JudgeFrame[];
  /** Earlier verdicts on the same condition of the same job, oldest first. */
  history: VerdictEntry[];
  /** The engine's clock now, so the ages of frames and verdicts can be told. */
  now: number;
}

/** A vision model deciding a natural-language condition. Rejects on transport failure. */
export interface VisualJudge {
  judge(
    request: VisualJudgeRequest,
    signal?: AbortSignal,
    hooks?: VisualJudgeHooks,
  ): Promise<VisualVerdict>;
}

export interface VisualJudgeHooks {
  /** Told the usage of the verdict's model call (tokens, images, timing). Must not throw. */
  onUsage?: (call: CallUsage) => void;
}

/**
 * How a wait settled. `stalled`: the screen stopped changing while the judge kept answering
 * `watching` (a visual condition that nothing on screen is moving towards). `unmet`: a decisive
 * check (verify-before-done) got a `watching` verdict.
 */
export type WaitStatus = 'resolved' | 'timeout' | 'cancelled' | 'failed' | 'stalled' | 'unmet';

export interface WaitOutcome {
  id: string;
  status: WaitStatus;
  /** Time from start to settlement, by the engine's clock. */
  elapsedMs: number;
  /** Why it settled: the last unmet condition, the judge's reason, or the failure. */
  detail: string;
  /** Model evaluations made and skipped by the pixel-diff gate. */
  evaluations: number;
  skippedEvaluations: number;
  captures: number;
}
