// One task run, top to bottom: row, queue place, lease, guard, operator, start, loop (task-loop.ts),
// ending, what is kept — and the one event stream (run-stream.ts) every reader subscribes to.
import type { Logger } from 'pino';
import type { HandoffReason } from '../agent/loop/handoff-types.js';
import type { LoopResult } from '../agent/loop/loop-types.js';
import type { BrowserLease } from '../browser/provider/browser-provider.js';
import { leaseBrowser } from '../browser/provider/lease-browser.js';
import { handoffForTask } from '../browser/takeover/handoff-for-task.js';
import { WaitEngine } from '../browser/wait/wait-engine.js';
import type { ApprovalRecord } from '../governance/approvals/approval-types.js';
import type { TaskGuard } from '../governance/policy/task-guards.js';
import {
  type LiveTaskStatus,
  liveStatusOf,
  type PendingApproval,
  pendingApprovalOf,
} from './live-status.js';
import { PauseGate } from './pause-gate.js';
import { runRecorders } from './run-recorders.js';
import { RunStream } from './run-stream.js';
import { SerialWrites } from './serial-writes.js';
import type { AdoptOptions, RunOptions, TaskRunDeps } from './task-deps.js';
import { downloadsOf, type TaskDownloads } from './task-downloads.js';
import { endingOf, recordEnding, taskSignal } from './task-ending.js';
import type { CompactResult } from './task-input.js';
import { keepOrRelease, keepRequestOf } from './task-keep.js';
import { runTaskLoop } from './task-loop.js';
import { taskModel, taskModelServer } from './task-model.js';
import { startRecording, taskProbe } from './task-operator.js';
import type { TaskPlan } from './task-plan.js';
import { createTaskRow, startTask } from './task-start.js';
import { type TaskUploads, uploadsOf } from './task-uploads.js';
import { createEvidenceLedger, type EvidenceLedger } from './task-verification.js';
import { createTraceRecorder, type TraceRecorder } from './trace-recorder.js';

/**
 * One task from its `queued` row (written by `start`, or by the submitting replica for a task
 * `adopt`ed from the shared queue) to its result. Every status — queued, running, paused,
 * awaiting_approval (the guard's approver), needs_user (the takeover port), each ending — is a
 * state of this owner: it publishes the event, whose first recorder (the trace) writes the row
 * first; all rows go through one queue (serial-writes.ts), the ending last, before `task-ended`.
 * `done` settles with the compact result whatever the ending. An abort takes effect in any state:
 * queued (ended at once, never started), paused, awaiting an approval, needing a person.
 */
export class TaskRun {
  readonly id: string;
  readonly done: Promise<CompactResult>;
  readonly #plan: TaskPlan;
  readonly #deps: TaskRunDeps;
  readonly #logger: Logger;
  readonly #controller = new AbortController();
  readonly #pauses = new PauseGate();
  readonly #writes: SerialWrites;
  readonly #trace: TraceRecorder;
  readonly #events: RunStream;
  /** The requests the steps caused and the criteria's check: what `finished` is checked against. */
  readonly #evidence: EvidenceLedger;
  /** The task's signal once it runs: its abort and its timeout. */
  #signal: AbortSignal = this.#controller.signal;
  #started = false;
  #ended = false;
  #approval: PendingApproval | null = null;
  #needsUser: HandoffReason | null = null;
  #status: LiveTaskStatus | null = null;
  /** The `queued` event's delivery (its row written, the listener told). */
  readonly #queued: Promise<void> | undefined;

  /** Writes the `queued` row (or rejects), starts the run; resolves once `queued` is recorded. */
  static async start(id: string, plan: TaskPlan, deps: TaskRunDeps, options: RunOptions) {
    await createTaskRow(id, plan, deps);
    const run = new TaskRun(id, plan, deps, options);
    await run.#queued;
    return run;
  }

  /** Runs a claimed task whose `queued` row and first event another replica (or this) wrote. */
  static adopt(id: string, plan: TaskPlan, deps: TaskRunDeps, options: AdoptOptions): TaskRun {
    return new TaskRun(id, plan, deps, { ...options, adopted: true });
  }

  private constructor(id: string, plan: TaskPlan, deps: TaskRunDeps, options: RunOptions) {
    this.id = id;
    this.#plan = plan;
    this.#deps = deps;
    this.#logger = deps.logger.child({ taskId: id });
    this.#writes = new SerialWrites(this.#logger);
    this.#trace = createTraceRecorder(id, { ...deps, writes: this.#writes, logger: this.#logger });
    this.#evidence = createEvidenceLedger(plan.input.surface !== 'desktop');
    const recorders = runRecorders({
      id,
      plan,
      deps,
      logger: this.#logger,
      trace: this.#trace,
      writes: this.#writes,
      evidence: this.#evidence,
      maxSteps: this.#maxSteps,
      storedEvents: options.adopted ? 1 : 0,
    });
    this.#events = new RunStream(recorders, this.#logger);
    // The caller's listener sees every event, from `queued` on.
    if (options.listener) this.#events.subscribe(options.listener);
    if (options.adopted) this.#status = 'queued'; // the row's status, and its stored first event
    if (options.aborted) this.#controller.abort();
    this.#queued = this.#setStatus();
    this.done = this.#run(options.held?.releaseSlot ?? options.slot, options.held);
  }

  get paused(): boolean {
    return this.#pauses.paused;
  }

  /** The approval the task waits for (status `awaiting_approval`), else null. */
  get pendingApproval(): PendingApproval | null {
    return this.#approval;
  }

  /** Why a person is needed (status `needs_user`), else null. */
  get needsUser(): HandoffReason | null {
    return this.#needsUser;
  }

  abort(): void {
    this.#controller.abort();
  }

  /**
   * Pauses before the next step (or while queued), or lets it continue; resolves once the status
   * is written to the row and published.
   */
  async setPaused(paused: boolean): Promise<void> {
    if (this.#pauses.paused === paused) return;
    if (paused) this.#pauses.pause();
    else this.#pauses.resume();
    await this.#setStatus();
  }

  async #run(slot: (() => void) | undefined, held?: RunOptions['held']): Promise<CompactResult> {
    const deps = this.#deps;
    const signal = this.#controller.signal;
    const releaseSlot = slot ?? (await deps.slots.acquire(signal).catch(() => null));
    if (!releaseSlot) {
      this.#logger.info('task aborted while queued');
      return this.#end({ status: 'aborted', summary: null, error: null, stepCount: 0 }, {});
    }
    // The lease goes to this run directly; the registry only indexes it for readers.
    const leased =
      held?.lease ?? (await leaseBrowser(deps.provider, this.id, this.#plan.input, signal));
    const lease = (await deps.prepareLease?.(this.#plan, this.id, leased, signal)) ?? leased;
    const guard = deps.guards(this.#plan, {
      taskId: this.id,
      browser: lease.operator,
      events: this.#events,
      approvals: {
        pending: (record) => this.#awaiting(record),
        settled: () => this.#awaiting(null),
      },
    });
    const recording = this.#plan.input.record
      ? startRecording(deps.recorder, this.id, this.#logger)
      : undefined;
    const downloads = downloadsOf(lease, this.#plan, this.id, { ...deps, logger: this.#logger });
    await downloads?.open();
    const uploads = uploadsOf(lease, this.#plan, this.id, {
      ...deps,
      logger: this.#logger,
      gate: guard.gate,
    });
    const result = await this.#drive(lease, guard, downloads, uploads);
    guard.close();
    await uploads?.close();
    await recording?.stop();
    // Copied out of the clone while the task still holds it.
    const artifacts = (await downloads?.collect(result.status !== 'aborted')) ?? [];
    const kept = await keepOrRelease(
      lease,
      releaseSlot,
      result,
      keepRequestOf(this.#plan, this.id, this.#deps.kept),
    ).catch((error: unknown) => {
      this.#logger.error({ err: error }, 'the task browser could not be kept or released');
      return {};
    });
    return this.#end(result, artifacts.length > 0 ? { ...kept, artifacts } : kept);
  }

  /**
   * Marks the task started, then start_url, logged_in_check and the loop. Never throws. One wait
   * engine (the process's judge) serves logged_in_check, the smart wait and the visual criterion.
   */
  async #drive(
    lease: BrowserLease,
    guard: TaskGuard,
    downloads: TaskDownloads | null,
    uploads: TaskUploads | null,
  ): Promise<LoopResult> {
    const deps = this.#deps;
    const { input } = this.#plan;
    const { signal, clear } = taskSignal(this.#controller.signal, input.timeout_s);
    this.#signal = signal;
    const judge = this.#trace.judge(deps.judge);
    const waits = new WaitEngine({ clock: deps.clock, images: deps.images, judge });
    try {
      const chosen = taskModel(input, { profile: deps.loop.profile, model: deps.model });
      const { profile, model } = chosen;
      // Asked while the browser starts; decides the format of the model's screenshots.
      const server = taskModelServer(chosen, deps, this.#logger, signal);
      const modelFacts = { name: model.name, profile: profile.name };
      await this.#writes.run(() => deps.repository.markStarted(this.id, deps.clock.now()));
      this.#started = true;
      this.#logger.info(
        { instruction: input.instruction, startUrl: input.start_url, model: modelFacts },
        'task-started',
      );
      await this.#events.publish({ type: 'task-started', at: deps.clock.now(), model: modelFacts });
      void this.#setStatus();
      await uploads?.open();
      const start = await startTask(
        input,
        { browser: lease.operator, probe: taskProbe(lease), waits },
        signal,
      );
      if ('ended' in start) return start.ended;
      if (start.startWithHandoff)
        this.#logger.info('logged_in_check failed: asking a person to log in');
      const handoff = handoffForTask(deps.takeover, this.#plan, {
        taskId: this.id,
        lease,
        onNeedsUser: (reason) => this.#needs(reason),
      });
      return await runTaskLoop({
        deps,
        modelServer: await server,
        input,
        profile,
        model,
        maxSteps: this.#maxSteps,
        start,
        lease,
        guard,
        waits,
        signal,
        handoff,
        waitWhilePaused: (abort) => this.#pauses.wait(abort),
        publish: (event) => this.#events.publish(event),
        downloads,
        uploads,
      });
    } catch (error) {
      return endingOf(error, 0, signal);
    } finally {
      clear();
      waits.close();
    }
  }

  /** The ending, once: the row (after every earlier write), then `task-ended` (audit, SSE, listeners). */
  async #end(result: LoopResult, kept: Partial<CompactResult>): Promise<CompactResult> {
    const verification =
      result.status === 'finished' ? this.#evidence.verdict(result.summary) : undefined;
    this.#ended = true;
    const ending = await this.#writes.run(() =>
      recordEnding(this.id, result, this.#trace, this.#deps, verification),
    );
    const { status, step_count: steps, error } = ending;
    this.#logger.info({ status, steps, error, verdict: verification?.verdict }, 'task-ended');
    const outcome = { ...ending, ...kept };
    await this.#events.publish({ type: 'task-ended', result: outcome });
    return outcome;
  }

  /**
   * The live status, from what the run is doing; on a change, the event (the trace writes the row
   * before the other readers see it). Resolves once it is delivered.
   */
  #setStatus(): Promise<void> | undefined {
    if (this.#ended || this.#signal.aborted) return;
    const status = liveStatusOf({
      needsUser: this.#needsUser !== null,
      awaitingApproval: this.#approval !== null,
      paused: this.#pauses.paused,
      started: this.#started,
    });
    if (status === this.#status) return;
    this.#status = status;
    const reason = status === 'needs_user' && this.#needsUser ? { reason: this.#needsUser } : {};
    const approval = status === 'awaiting_approval' && this.#approval;
    return this.#events.publish({
      type: 'status-changed',
      status,
      ...reason,
      ...(approval ? { approval } : {}),
    });
  }

  /** The guard's approver: an approval of this task is pending, or was answered (null). */
  #awaiting(record: ApprovalRecord | null): void {
    this.#approval = record && pendingApprovalOf(record);
    void this.#setStatus();
  }

  /** The takeover port: a person is needed (why), or no longer (null). */
  #needs(reason: HandoffReason | null): void {
    this.#needsUser = reason;
    void this.#setStatus();
  }

  get #maxSteps(): number {
    return this.#plan.input.max_steps ?? this.#deps.loop.maxSteps;
  }
}
