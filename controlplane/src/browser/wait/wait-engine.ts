/**
 * The wait engine: many wait jobs multiplexed by one scheduler over an injected clock. Each job
 * polls at its own adaptive interval; captures are serialised and shared per display (FrameHub);
 * every job settles exactly once — resolved, timeout, cancelled, failed, stalled or unmet —
 * whatever races between its evaluation, its deadline, cancel() and the caller's signal.
 */

import type { ImageCodec } from '@clawdie/kit/images';
import type { Clock } from '../../clock.js';
import { isAbortError } from '../../errors.js';
import { FrameHub } from './frame-hub.js';
import { DEFAULT_POLL, type JobTarget, type PollSettings, WaitJob } from './wait-job.js';
import type { VisualJudge, WaitCondition, WaitOutcome, WaitStatus } from './wait-types.js';

export interface WaitRequest {
  conditions: WaitCondition[];
  timeoutMs: number;
  target: JobTarget;
  signal?: AbortSignal;
  settings?: Partial<PollSettings>;
  /**
   * A one-time check (verify-before-done): the first `resolved` verdict resolves the job, the
   * first `watching` one settles it `unmet`; only `partial` keeps it watching until the timeout.
   */
  decisive?: boolean;
}

export interface WaitHandle {
  readonly id: string;
  readonly outcome: Promise<WaitOutcome>;
  /** Cancels the job; false when it had already settled. */
  cancel(): boolean;
}

export interface WaitEngineOptions {
  clock: Clock;
  /** The process's image codec (thumbnails, judge frames). */
  images: ImageCodec;
  judge?: VisualJudge | undefined;
  settings?: Partial<PollSettings>;
  newId?: () => string;
  /** Consecutive failed rounds (probe/capture/judge errors) before a job fails; default 3. */
  maxErrors?: number;
}

interface Entry {
  id: string;
  job: WaitJob;
  deadline: number;
  dueAt: number;
  inFlight: boolean;
  errors: number;
  lastDetail: string;
  abort: AbortController;
  settle: (status: WaitStatus, detail: string) => boolean;
}

export class WaitEngine {
  readonly #options: WaitEngineOptions;
  readonly #clock: Clock;
  readonly #hub: FrameHub;
  readonly #entries = new Map<string, Entry>();
  #wake: AbortController | null = null;
  #running = false;
  #counter = 0;

  constructor(options: WaitEngineOptions) {
    this.#options = options;
    this.#clock = options.clock;
    this.#hub = new FrameHub(options.clock, options.images);
  }

  /** Jobs not yet settled. */
  get active(): number {
    return this.#entries.size;
  }

  get captures(): number {
    return this.#hub.captures;
  }

  /** Whether `visual` conditions can be judged here. */
  get hasJudge(): boolean {
    return this.#options.judge !== undefined;
  }

  /** Starts a job. Never throws: an impossible job settles at once as `failed`. */
  start(request: WaitRequest): WaitHandle {
    const id = this.#options.newId?.() ?? `wait-${++this.#counter}`;
    const now = this.#clock.now();
    const settings = { ...DEFAULT_POLL, ...this.#options.settings, ...request.settings };
    const job = new WaitJob(request.conditions, request.target, settings, now, {
      decisive: request.decisive,
    });
    let resolveOutcome!: (outcome: WaitOutcome) => void;
    const outcome = new Promise<WaitOutcome>((resolve) => {
      resolveOutcome = resolve;
    });
    let settled = false;
    const entry: Entry = {
      id,
      job,
      deadline: now + request.timeoutMs,
      dueAt: now,
      inFlight: false,
      errors: 0,
      lastDetail: 'not evaluated yet',
      abort: new AbortController(),
      settle: (status, detail) => {
        if (settled) return false;
        settled = true;
        this.#entries.delete(id);
        entry.abort.abort();
        request.signal?.removeEventListener('abort', onAbort);
        resolveOutcome({
          id,
          status,
          elapsedMs: this.#clock.now() - job.startedAt,
          detail,
          evaluations: job.evaluations,
          skippedEvaluations: job.skipped,
          captures: this.#hub.captures,
        });
        this.#poke();
        return true;
      },
    };
    const onAbort = () => entry.settle('cancelled', 'the caller cancelled the wait');
    const problem =
      request.conditions.length === 0
        ? 'a wait needs at least one condition'
        : job.unsupported(this.hasJudge);
    if (problem) {
      entry.settle('failed', problem);
    } else if (request.signal?.aborted) {
      entry.settle('cancelled', 'the caller cancelled the wait');
    } else {
      request.signal?.addEventListener('abort', onAbort, { once: true });
      this.#entries.set(id, entry);
      this.#poke();
    }
    return { id, outcome, cancel: () => entry.settle('cancelled', 'cancelled') };
  }

  /** Cancels every job. */
  close(): void {
    for (const entry of [...this.#entries.values()])
      entry.settle('cancelled', 'the wait engine closed');
  }

  #poke(): void {
    this.#wake?.abort();
    if (!this.#running && this.#entries.size > 0) {
      this.#running = true;
      void this.#loop().catch(() => {
        this.#running = false;
      });
    }
  }

  async #loop(): Promise<void> {
    while (this.#entries.size > 0) {
      const now = this.#clock.now();
      let next = Number.POSITIVE_INFINITY;
      for (const entry of [...this.#entries.values()]) {
        if (now >= entry.deadline) {
          entry.settle('timeout', `timed out: ${entry.lastDetail}`);
          continue;
        }
        if (!entry.inFlight && now >= entry.dueAt) this.#evaluate(entry);
        next = Math.min(
          next,
          entry.deadline,
          entry.inFlight ? Number.POSITIVE_INFINITY : entry.dueAt,
        );
      }
      if (this.#entries.size === 0) break;
      this.#wake = new AbortController();
      const delay = Number.isFinite(next) ? Math.max(0, next - this.#clock.now()) : 60_000;
      // Only in-flight jobs: wait for one of them to finish (poke) instead of letting time pass.
      const allInFlight = [...this.#entries.values()].every((entry) => entry.inFlight);
      try {
        if (allInFlight) await abortable(this.#wake.signal);
        else await this.#clock.sleep(delay, this.#wake.signal);
      } catch (error) {
        if (!isAbortError(error)) throw error;
      }
    }
    this.#running = false;
    if (this.#entries.size > 0) this.#poke();
  }

  #evaluate(entry: Entry): void {
    entry.inFlight = true;
    const now = () => this.#clock.now();
    void entry.job
      .round(this.#hub, this.#options.judge, now, entry.abort.signal)
      .then(
        (result) => {
          entry.errors = 0;
          entry.lastDetail = result.detail;
          if (result.held) entry.settle('resolved', result.detail);
          else if (result.end) entry.settle(result.end, result.detail);
        },
        (error: unknown) => {
          if (entry.abort.signal.aborted) return;
          entry.errors += 1;
          entry.lastDetail = `evaluation failed: ${(error as Error).message}`;
          if (entry.errors >= (this.#options.maxErrors ?? 3))
            entry.settle('failed', entry.lastDetail);
        },
      )
      .finally(() => {
        entry.inFlight = false;
        const interval = entry.job.needsFrames ? entry.job.interval : entry.job.settings.pollMs;
        entry.dueAt = this.#clock.now() + interval;
        this.#poke();
      });
  }
}

function abortable(signal: AbortSignal): Promise<void> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
