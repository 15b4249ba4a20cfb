// One visual condition of a wait job: the gated judge call with its temporal context (the frames
// of the condition's last few evaluations and the verdicts given on them, each with its time) and
// stall detection (the screen stopped changing while the judge keeps answering `watching`).
import type { ImageCodec } from '@clawdie/kit/images';
import { type DiffOptions, diffThumbnails, type Thumbnail } from './frame-diff.js';
import type { Frame } from './frame-hub.js';
import type { JudgeFrame, VerdictEntry, VisualJudge, VisualVerdict } from './wait-types.js';

/** The poll settings a visual condition reads (wait-job.ts `PollSettings`). */
export interface JudgeSettings {
  /** A model evaluation happens at least this often even when the gate sees no change. */
  forceEvalMs: number;
  /** Frames (at evaluation times) and verdicts sent to the judge. */
  contextFrames: number;
  /** Largest side of the frames sent to the judge (DETM: 960 px). */
  judgeMaxSide: number;
  /**
   * Polls in a row on an unchanged screen judged `watching` after which the wait ends `stalled`
   * (0: never). A `partial` verdict or any change of the screen starts the count again.
   */
  stallPolls: number;
  diff: DiffOptions;
}

export class VisualWatch {
  readonly condition: string;
  /** Judge calls made, and polls the pixel-diff gate answered with the last verdict. */
  evaluations = 0;
  skipped = 0;
  #last: { thumb: Thumbnail; at: number; verdict: VisualVerdict } | null = null;
  readonly #frames: JudgeFrame[] = [];
  readonly #history: VerdictEntry[] = [];
  /** Polls in a row on the screen of `#stillSince`, unchanged and judged `watching`. */
  #stale = 0;
  #stillSince = 0;

  constructor(condition: string) {
    this.condition = condition;
  }

  /**
   * The verdict on `frame`: the judge's, or the last one while the screen matches the frame it
   * was given and `forceEvalMs` has not passed. Rejects when the judge rejects.
   */
  async verdict(
    frame: Frame,
    judge: VisualJudge,
    context: { now: () => number; signal: AbortSignal; images: ImageCodec },
    settings: JudgeSettings,
  ): Promise<VisualVerdict> {
    const { now } = context;
    const last = this.#last;
    const changed =
      last === null || diffThumbnails(last.thumb, frame.thumbnail, settings.diff).changed;
    let verdict: VisualVerdict;
    if (last && !changed && now() - last.at < settings.forceEvalMs) {
      this.skipped += 1;
      verdict = last.verdict;
    } else {
      this.evaluations += 1;
      const jpeg = await forJudge(frame.jpeg, settings.judgeMaxSide, context.images);
      keepLast(this.#frames, { jpeg, at: frame.at }, settings.contextFrames);
      verdict = await judge.judge(
        {
          condition: this.condition,
          frames: [...this.#frames],
          history: [...this.#history],
          now: now(),
        },
        context.signal,
      );
      const at = now();
      this.#last = { thumb: frame.thumbnail, at, verdict };
      keepLast(this.#history, { at, ...verdict }, settings.contextFrames);
    }
    if (changed) this.#stillSince = frame.at;
    this.#stale = !changed && verdict.decision === 'watching' ? this.#stale + 1 : 0;
    return verdict;
  }

  /** Why this condition has stalled (see `JudgeSettings.stallPolls`), or null. */
  stalled(settings: JudgeSettings, now: number): string | null {
    const last = this.#last;
    if (settings.stallPolls <= 0 || this.#stale < settings.stallPolls || !last) return null;
    const seconds = ((now - this.#stillSince) / 1000).toFixed(1);
    return `stalled: the screen has not changed for ${this.#stale} polls (${seconds} s) and the judge still says it does not hold (${last.verdict.reason})`;
  }
}

function keepLast<T>(list: T[], item: T, size: number): void {
  list.push(item);
  if (list.length > size) list.shift();
}

/** Downscales a frame for the judge (JPEG q72, DETM's smart-wait setting). */
function forJudge(jpeg: Buffer, maxSide: number, images: ImageCodec): Promise<Buffer> {
  return images.resizeJpeg(jpeg, { width: maxSide, height: maxSide, fit: 'inside', quality: 72 });
}
