// One wait job: evaluates its conditions cheapest first, gates model calls with the frame diff,
// keeps a small context window (frames + verdicts) per visual condition, adapts its polling
// interval, and ends early when a visual condition stalls (visual-watch.ts).
import { byCost, checkCheap, describeCondition, isCheap, probeReads } from './conditions.js';
import { diffThumbnails, type Thumbnail } from './frame-diff.js';
import type { Frame, FrameHub } from './frame-hub.js';
import { type SettleOptions, SettleTracker } from './settle-tracker.js';
import { type JudgeSettings, VisualWatch } from './visual-watch.js';
import type { FrameSource, PageProbe, VisualJudge, WaitCondition } from './wait-types.js';

export interface PollSettings extends JudgeSettings {
  /** Interval of jobs without frame conditions, and the starting interval of the others. */
  pollMs: number;
  /** Interval right after a change, and during a `partial` burst. */
  minPollMs: number;
  /** Ceiling the interval grows to while the screen is static. */
  maxPollMs: number;
  /** Polls kept at `minPollMs` after a `partial` verdict. */
  burstPolls: number;
  /** How `stable` tells the page's changes from restless regions (settle-tracker.ts). */
  settle: SettleOptions;
}

export const DEFAULT_POLL: Readonly<PollSettings> = Object.freeze({
  pollMs: 500,
  minPollMs: 250,
  maxPollMs: 3000,
  forceEvalMs: 15_000,
  contextFrames: 3,
  burstPolls: 4,
  judgeMaxSide: 960,
  stallPolls: 20,
  diff: {},
  settle: {},
});

export interface JobTarget {
  frames?: FrameSource | undefined;
  probe?: PageProbe | undefined;
}

/**
 * One round: all conditions held, or not yet — or not ever: `end` settles the job at once
 * (`stalled`, or `unmet` for a decisive job's `watching` verdict).
 */
export type RoundResult =
  | { held: true; detail: string }
  | { held: false; detail: string; end?: 'stalled' | 'unmet' };

export class WaitJob {
  readonly conditions: WaitCondition[];
  readonly settings: PollSettings;
  readonly target: JobTarget;
  readonly startedAt: number;
  /** The first `resolved` or `watching` verdict settles the job; only `partial` keeps watching. */
  readonly decisive: boolean;
  interval: number;
  #burst = 0;
  #lastThumb: Thumbnail | null = null;
  /** What changed in which frame, for `stable`: restless regions (caret, clock) left out. */
  readonly #settle: SettleTracker;
  /** One per visual condition: its own context window, gate and stall count. */
  readonly #watches = new Map<string, VisualWatch>();

  constructor(
    conditions: WaitCondition[],
    target: JobTarget,
    settings: PollSettings,
    now: number,
    options: { decisive?: boolean | undefined } = {},
  ) {
    this.conditions = byCost(conditions);
    this.target = target;
    this.settings = settings;
    this.startedAt = now;
    this.decisive = options.decisive === true;
    this.#settle = new SettleTracker({ ...settings.diff, ...settings.settle });
    this.interval = settings.pollMs;
  }

  /** Model evaluations made, over every visual condition. */
  get evaluations(): number {
    return [...this.#watches.values()].reduce((sum, watch) => sum + watch.evaluations, 0);
  }

  /** Evaluations the pixel-diff gate skipped. */
  get skipped(): number {
    return [...this.#watches.values()].reduce((sum, watch) => sum + watch.skipped, 0);
  }

  /** Why this job can never be evaluated here, or null. */
  unsupported(hasJudge: boolean): string | null {
    for (const condition of this.conditions) {
      if (isCheap(condition)) {
        if (!this.target.probe) return `${condition.type} needs a page probe`;
        const needs =
          condition.type === 'url_matches'
            ? 'state'
            : condition.type === 'element_present'
              ? 'elements'
              : 'text';
        if (!this.target.probe[needs])
          return `${condition.type} needs a probe that can read ${needs}`;
      } else if (!this.target.frames) return `${condition.type} needs screen frames`;
      else if (condition.type === 'visual' && !hasJudge)
        return 'visual conditions need a vision judge';
    }
    return null;
  }

  get needsFrames(): boolean {
    return this.conditions.some((condition) => !isCheap(condition));
  }

  /** One evaluation round at `now`. Rejects when a probe, capture or the judge rejects. */
  async round(
    hub: FrameHub,
    judge: VisualJudge | undefined,
    now: () => number,
    signal: AbortSignal,
  ): Promise<RoundResult> {
    const reads = this.target.probe ? probeReads(this.target.probe, signal) : null;
    let frame: Frame | null = null;
    let judged: string | null = null;
    for (const condition of this.conditions) {
      if (isCheap(condition)) {
        const result = await checkCheap(condition, reads as NonNullable<typeof reads>);
        if (result.kind !== 'held') return this.#unmet(result.missing);
        continue;
      }
      frame ??= await this.#frame(hub, signal, now);
      if (condition.type === 'stable') {
        const at = now();
        const settled = this.#settle.settled(at, condition.ms);
        const quiet = at - (settled.lastChangeAt ?? this.startedAt);
        const ready = condition.afterChange !== true || settled.changed;
        const long = ready && quiet >= condition.ms;
        if (!long && !(ready && (await pageQuiet(condition, quiet, reads)))) {
          return this.#unmet(`${describeCondition(condition)} (quiet for ${quiet} ms)`);
        }
      } else if (condition.type === 'visual') {
        const watch = this.#watch(condition.description);
        const evaluated = watch.evaluations;
        const verdict = await watch.verdict(
          frame,
          judge as VisualJudge,
          { now, signal, images: hub.images },
          this.settings,
        );
        // A fresh `partial` (something is starting to happen): poll fast for a few polls.
        if (verdict.decision === 'partial' && watch.evaluations > evaluated) {
          this.#burst = this.settings.burstPolls;
          this.interval = this.settings.minPollMs;
        }
        if (verdict.decision !== 'resolved') {
          const detail = `${condition.description}: ${verdict.reason}`;
          if (this.decisive && verdict.decision === 'watching')
            return { held: false, detail, end: 'unmet' };
          const stall = watch.stalled(this.settings, now());
          if (stall)
            return { held: false, detail: `${condition.description}: ${stall}`, end: 'stalled' };
          return this.#unmet(detail);
        }
        judged = verdict.reason;
      }
    }
    return { held: true, detail: judged ?? 'all conditions hold' };
  }

  #watch(condition: string): VisualWatch {
    let watch = this.#watches.get(condition);
    if (!watch) {
      watch = new VisualWatch(condition);
      this.#watches.set(condition, watch);
    }
    return watch;
  }

  async #frame(hub: FrameHub, signal: AbortSignal, now: () => number): Promise<Frame> {
    const frame = await hub.frame(
      this.target.frames as FrameSource,
      this.settings.minPollMs / 2,
      signal,
    );
    const previous = this.#lastThumb;
    this.#lastThumb = frame.thumbnail;
    if (previous !== frame.thumbnail) this.#settle.observe(frame.thumbnail, now());
    const changed =
      previous !== null && diffThumbnails(previous, frame.thumbnail, this.settings.diff).changed;
    if (changed) {
      this.interval = this.settings.minPollMs;
    } else if (this.#burst > 0) {
      this.#burst -= 1;
      this.interval = this.settings.minPollMs;
    } else {
      this.interval = Math.min(this.settings.maxPollMs, Math.round(this.interval * 1.5));
    }
    return frame;
  }

  #unmet(detail: string): RoundResult {
    return { held: false, detail };
  }
}

/**
 * Whether a `stable` condition with `quickMs` holds early: the screen quiet for `quickMs` and the
 * page reporting nothing loading and no request in flight for as long. False without page signals.
 */
async function pageQuiet(
  condition: Extract<WaitCondition, { type: 'stable' }>,
  quiet: number,
  reads: ReturnType<typeof probeReads> | null,
): Promise<boolean> {
  if (condition.quickMs === undefined || quiet < condition.quickMs || !reads) return false;
  // A page that cannot answer now (it is navigating) gives no early answer; pixels still decide.
  const state = await reads.state().catch(() => null);
  return state !== null && !state.loading && (state.network_idle_ms ?? 0) >= condition.quickMs;
}
