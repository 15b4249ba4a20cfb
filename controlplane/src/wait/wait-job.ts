// One wait job: evaluates its conditions cheapest first, gates model calls with the frame diff,
// keeps a small context window (frames + verdicts) and adapts its polling interval.
import type { ImageCodec } from '@clawdie/jail-service/images';
import { byCost, checkCheap, describeCondition, isCheap, probeReads } from './conditions.js';
import { type DiffOptions, diffThumbnails, type Thumbnail } from './frame-diff.js';
import type { Frame, FrameHub } from './frame-hub.js';
import type {
  FrameSource,
  PageProbe,
  VisualDecision,
  VisualJudge,
  WaitCondition,
} from './wait-types.js';

export interface PollSettings {
  /** Interval of jobs without frame conditions, and the starting interval of the others. */
  pollMs: number;
  /** Interval right after a change, and during a `partial` burst. */
  minPollMs: number;
  /** Ceiling the interval grows to while the screen is static. */
  maxPollMs: number;
  /** A model evaluation happens at least this often even when the gate sees no change. */
  forceEvalMs: number;
  /** Frames (at evaluation times) and verdicts sent to the judge. */
  contextFrames: number;
  /** Polls kept at `minPollMs` after a `partial` verdict. */
  burstPolls: number;
  /** Largest side of the frames sent to the judge (DETM: 960 px). */
  judgeMaxSide: number;
  diff: DiffOptions;
}

export const DEFAULT_POLL: Readonly<PollSettings> = Object.freeze({
  pollMs: 500,
  minPollMs: 250,
  maxPollMs: 3000,
  forceEvalMs: 15_000,
  contextFrames: 3,
  burstPolls: 4,
  judgeMaxSide: 960,
  diff: {},
});

export interface JobTarget {
  frames?: FrameSource | undefined;
  probe?: PageProbe | undefined;
}

export type RoundResult = { held: true; detail: string } | { held: false; detail: string };

export class WaitJob {
  readonly conditions: WaitCondition[];
  readonly settings: PollSettings;
  readonly target: JobTarget;
  readonly startedAt: number;
  interval: number;
  evaluations = 0;
  skipped = 0;
  #burst = 0;
  #lastThumb: Thumbnail | null = null;
  #lastChangeAt: number;
  #changedSinceStart = false;
  #lastEval: { thumb: Thumbnail; at: number; decision: VisualDecision; reason: string } | null =
    null;
  readonly #context: Buffer[] = [];
  readonly #history: { at: number; decision: VisualDecision; reason: string }[] = [];

  constructor(conditions: WaitCondition[], target: JobTarget, settings: PollSettings, now: number) {
    this.conditions = byCost(conditions);
    this.target = target;
    this.settings = settings;
    this.startedAt = now;
    this.#lastChangeAt = now;
    this.interval = settings.pollMs;
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
    for (const condition of this.conditions) {
      if (isCheap(condition)) {
        const result = await checkCheap(condition, reads as NonNullable<typeof reads>);
        if (result.kind !== 'held') return this.#unmet(result.missing);
        continue;
      }
      frame ??= await this.#frame(hub, signal, now);
      if (condition.type === 'stable') {
        const quiet = now() - this.#lastChangeAt;
        const ready = condition.afterChange !== true || this.#changedSinceStart;
        if (!ready || quiet < condition.ms) {
          return this.#unmet(`${describeCondition(condition)} (quiet for ${quiet} ms)`);
        }
      } else if (condition.type === 'visual') {
        const verdict = await this.#judge(
          condition.description,
          frame,
          judge as VisualJudge,
          now,
          signal,
          hub.images,
        );
        if (verdict.decision !== 'resolved')
          return this.#unmet(`${condition.description}: ${verdict.reason}`);
      }
    }
    const last = this.#lastEval;
    return { held: true, detail: last ? last.reason : 'all conditions hold' };
  }

  async #frame(hub: FrameHub, signal: AbortSignal, now: () => number): Promise<Frame> {
    const frame = await hub.frame(
      this.target.frames as FrameSource,
      this.settings.minPollMs / 2,
      signal,
    );
    const previous = this.#lastThumb;
    this.#lastThumb = frame.thumbnail;
    const changed =
      previous !== null && diffThumbnails(previous, frame.thumbnail, this.settings.diff).changed;
    if (changed) {
      this.#lastChangeAt = now();
      this.#changedSinceStart = true;
      this.interval = this.settings.minPollMs;
    } else if (this.#burst > 0) {
      this.#burst -= 1;
      this.interval = this.settings.minPollMs;
    } else {
      this.interval = Math.min(this.settings.maxPollMs, Math.round(this.interval * 1.5));
    }
    return frame;
  }

  /** The gated model call: skipped while the screen matches the last evaluated frame. */
  async #judge(
    condition: string,
    frame: Frame,
    judge: VisualJudge,
    now: () => number,
    signal: AbortSignal,
    images: ImageCodec,
  ): Promise<{ decision: VisualDecision; reason: string }> {
    const last = this.#lastEval;
    const stale = last === null || now() - last.at >= this.settings.forceEvalMs;
    if (!stale && !diffThumbnails(last.thumb, frame.thumbnail, this.settings.diff).changed) {
      this.skipped += 1;
      return last;
    }
    this.evaluations += 1;
    this.#context.push(await forJudge(frame.jpeg, this.settings.judgeMaxSide, images));
    if (this.#context.length > this.settings.contextFrames) this.#context.shift();
    const verdict = await judge.judge(
      { condition, frames: [...this.#context], history: [...this.#history] },
      signal,
    );
    const at = now();
    this.#lastEval = { thumb: frame.thumbnail, at, ...verdict };
    this.#history.push({ at, ...verdict });
    if (this.#history.length > this.settings.contextFrames) this.#history.shift();
    if (verdict.decision === 'partial') {
      this.#burst = this.settings.burstPolls;
      this.interval = this.settings.minPollMs;
    }
    return verdict;
  }

  #unmet(detail: string): RoundResult {
    return { held: false, detail };
  }
}

/** Downscales a frame for the judge (JPEG q72, DETM's smart-wait setting). */
function forJudge(jpeg: Buffer, maxSide: number, images: ImageCodec): Promise<Buffer> {
  return images.resizeJpeg(jpeg, { width: maxSide, height: maxSide, fit: 'inside', quality: 72 });
}
