// One task run, top to bottom: the row, the queue place, the browser lease, the guard, the
// operator the loop drives (wrapped once, in one order), the loop, the ending, what is kept.
import type { LoopEvent } from '../agent/loop-types.js';
import type { ApprovalRecord } from '../approvals/approval-types.js';
import type { BrowserLease, BrowserProvider } from '../browsers/browser-provider.js';
import type { KeptBrowser, KeptBrowsers } from '../browsers/kept-browsers.js';
import { leaseBrowser } from '../browsers/lease-browser.js';
import type { BrowserOperator } from '../operator/browser-operator.js';
import type { TaskGuard, TaskGuards } from '../policy/task-guards.js';
import type { LeasePreparer } from '../sessions/session-injector.js';
import { handoffForTask } from '../takeover/handoff-for-task.js';
import type { TakeoverDeps } from '../takeover/task-handoff.js';
import { createJailPageProbe } from '../wait/jail-page-probe.js';
import { withSmartWait } from '../wait/smart-wait-operator.js';
import { WaitEngine } from '../wait/wait-engine.js';
import { createDesktopTaskOperator } from './desktop-task-operator.js';
import { PauseGate } from './pause-gate.js';
import { type RunBrowserTaskDeps, runBrowserTask } from './run-browser-task.js';
import { createStepTracker, type PendingApproval, type TaskEventLog } from './task-events.js';
import type { CompactResult } from './task-input.js';
import { defaultKeepRules, type TaskPlan } from './task-plan.js';
import type { TaskSlots } from './task-slots.js';

/** What every run of one task service shares. */
export interface TaskRunDeps extends RunBrowserTaskDeps {
  events: TaskEventLog;
  provider: BrowserProvider;
  slots: TaskSlots;
  kept: KeptBrowsers;
  guards: TaskGuards;
  /** The X display of a lease, for `surface: 'desktop'` tasks. */
  desktopOperator: (lease: BrowserLease) => BrowserOperator;
  prepareLease?: LeasePreparer | undefined;
  takeover?: TakeoverDeps | undefined;
}

/**
 * One task from its `queued` row to its result. The constructor creates the row and reports
 * `queued`; `done` settles with the compact result whatever the ending. Every status the task can
 * be in (queued, running, paused, awaiting_approval, needs_user — the last set by the takeover
 * port — and each ending) is written to the row and reported on the event log by this owner. An
 * abort takes effect in any state: a task aborted before it got a browser ends `aborted` at once,
 * never started.
 */
export class TaskRun {
  readonly id: string;
  readonly done: Promise<CompactResult>;
  readonly #plan: TaskPlan;
  readonly #deps: TaskRunDeps;
  readonly #controller = new AbortController();
  readonly #pauses = new PauseGate();
  #approval: PendingApproval | null = null;

  constructor(
    id: string,
    plan: TaskPlan,
    deps: TaskRunDeps,
    options: { held?: KeptBrowser | undefined; onEvent?: ((event: LoopEvent) => void) | undefined },
  ) {
    this.id = id;
    this.#plan = plan;
    this.#deps = deps;
    createTaskRow(id, plan, deps);
    this.#status('queued');
    this.done = this.#run(options.held, options.onEvent);
  }

  get paused(): boolean {
    return this.#pauses.paused;
  }

  /** The approval the task waits for (status `awaiting_approval`), else null. */
  get pendingApproval(): PendingApproval | null {
    return this.#approval;
  }

  abort(): void {
    this.#controller.abort();
  }

  /** Pauses before the next step (or while queued), or lets it continue; tells the row and SSE. */
  setPaused(paused: boolean): void {
    if (this.#pauses.paused === paused) return;
    if (paused) this.#pauses.pause();
    else this.#pauses.resume();
    this.#deps.repository.setPaused(this.id, paused);
    const status = this.#deps.repository.getTask(this.id)?.status;
    if (status === 'queued' || status === 'running' || status === 'paused') this.#status(status);
  }

  async #run(held: KeptBrowser | undefined, onEvent?: (event: LoopEvent) => void) {
    const { id } = this;
    const deps = this.#deps;
    const { input } = this.#plan;
    const signal = this.#controller.signal;
    const releaseSlot = held?.releaseSlot ?? (await deps.slots.acquire(signal).catch(() => null));
    if (!releaseSlot) return this.#endUnstarted();
    this.#status(this.#pauses.paused ? 'paused' : 'running');
    // The lease goes to this run directly; the registry only indexes it for readers.
    const leased = held?.lease ?? (await leaseBrowser(deps.provider, id, input, signal));
    const lease = (await deps.prepareLease?.(this.#plan, id, leased, signal)) ?? leased;
    const guard = deps.guards(this.#plan, {
      taskId: id,
      browser: lease.operator,
      events: deps.events,
      approvals: {
        pending: (record) => this.#awaiting(record),
        settled: () => this.#awaiting(null),
      },
    });
    const recording = input.record ? this.#startRecording() : undefined;
    let kept: Partial<CompactResult> = {};
    let outcome: CompactResult | undefined;
    try {
      outcome = await runBrowserTask(
        this.#plan,
        { ...deps, operator: this.#operator(lease, guard), browser: lease.operator },
        {
          taskId: id,
          gate: guard.gate,
          signal,
          waitWhilePaused: (s) => this.#pauses.wait(s),
          handoff: handoffForTask(deps.takeover, this.#plan, {
            taskId: id,
            lease,
            events: deps.events,
          }),
          probe: lease.service ? createJailPageProbe(lease.service) : undefined,
          onEvent: this.#relay(onEvent),
        },
      );
    } finally {
      guard.close();
      await recording?.stop();
      kept = await this.#keepOrRelease(lease, releaseSlot, outcome);
    }
    outcome = { ...outcome, ...kept };
    deps.events.append(id, { type: 'result', data: outcome });
    return outcome;
  }

  /**
   * The operator the loop drives, wrapped once and in this order: the lease's browser (or its
   * whole display for a desktop task), then the guard (secret placeholders refused, or filled
   * after an approval), then the smart wait (a lone `wait` watches the screen instead of sleeping).
   */
  #operator(lease: BrowserLease, guard: TaskGuard): BrowserOperator {
    const deps = this.#deps;
    const desktop = this.#plan.input.surface === 'desktop' && lease.display;
    const surface = desktop
      ? createDesktopTaskOperator(deps.desktopOperator(lease), lease.operator)
      : lease.operator;
    const guarded = guard.wrapOperator(surface);
    if (!deps.loop.smartWait) return guarded;
    return withSmartWait(guarded, new WaitEngine({ clock: deps.clock, images: deps.images }));
  }

  /** Loop events to the step/stuck stream events, then to the caller's listener. */
  #relay(onEvent?: (event: LoopEvent) => void) {
    const { id } = this;
    const deps = this.#deps;
    const track = createStepTracker(id, this.#plan.input.max_steps ?? deps.loop.maxSteps);
    return (event: LoopEvent) => {
      const step = track(event);
      // Every started step is a row and ends exactly once (an aborted one `aborted`), so the
      // step number is the step_count every surface reports.
      if (step) deps.events.append(id, { type: 'step', data: { ...step, step_count: step.step } });
      if (event.type === 'task-stuck')
        deps.events.append(id, {
          type: 'stuck',
          data: { trace_id: id, step: event.step, summary: event.summary },
        });
      onEvent?.(event);
    };
  }

  /** An approval of this task is pending (`awaiting_approval`), or was answered (`running`). */
  #awaiting(record: ApprovalRecord | null): void {
    this.#approval = record && {
      id: record.id,
      kind: record.kind,
      reason: record.reason,
      action: record.detail.action ?? null,
    };
    const { repository } = this.#deps;
    repository.setAwaitingApproval(this.id, record !== null);
    if (this.#approval) {
      this.#status('awaiting_approval', { approval: this.#approval });
      return;
    }
    if (this.#controller.signal.aborted) return;
    // Paused while it waited: the pause holds from here (the row could not show it before).
    if (this.#pauses.paused) repository.setPaused(this.id, true);
    this.#status(this.#pauses.paused ? 'paused' : 'running');
  }

  /** Aborted while waiting for its turn: ended at once, never started, no browser taken. */
  #endUnstarted(): CompactResult {
    const { id } = this;
    const deps = this.#deps;
    deps.repository.endTask(id, {
      status: 'aborted',
      summary: null,
      resultData: null,
      errorCode: null,
      errorMessage: null,
      stepCount: 0,
      finalScreenshotPath: null,
      endedAt: deps.clock.now(),
    });
    deps.logger.info({ taskId: id }, 'task aborted while queued');
    const result: CompactResult = {
      status: 'aborted',
      summary: null,
      result_data: null,
      trace_id: id,
      step_count: 0,
      final_screenshot_path: null,
    };
    deps.events.append(id, { type: 'result', data: result });
    return result;
  }

  /**
   * Keeps the browser of a task that asked to (`keep_session`) when usable, else releases it and
   * the queue place; returns what the result says about it (`session_id`, `session_refused`).
   */
  async #keepOrRelease(
    lease: BrowserLease,
    releaseSlot: () => void,
    outcome: CompactResult | undefined,
  ): Promise<Partial<CompactResult>> {
    const asked = outcome && this.#plan.input.keep_session;
    const session = asked ? this.#keep(lease, releaseSlot, outcome) : null;
    if (session && 'sessionId' in session) return { session_id: session.sessionId };
    await lease.release();
    releaseSlot();
    return session ? { session_id: null, session_refused: session.refused } : {};
  }

  #keep(lease: BrowserLease, releaseSlot: () => void, result: CompactResult) {
    const unusable =
      lease.id === 'none'
        ? 'the task had no browser'
        : result.status === 'aborted'
          ? 'the task was aborted'
          : result.error?.code.startsWith('OPERATOR_')
            ? `its browser failed (${result.error.code})`
            : null;
    if (unusable) return { refused: unusable };
    const rules = this.#plan.keep ?? defaultKeepRules;
    return this.#deps.kept.keep(lease, releaseSlot, {
      tenant: this.#plan.tenant,
      taskId: this.id,
      domains: this.#plan.input.domains ?? ['*'],
      idleTtlMs: rules.idleTtlMs,
      maxSessions: rules.maxSessions,
    });
  }

  #startRecording() {
    const deps = this.#deps;
    if (deps.recorder) return deps.recorder.start(this.id);
    deps.logger.warn(
      { taskId: this.id },
      'task asked to be recorded, but recording is unavailable (no ffmpeg at /usr/bin/ffmpeg); running it without a recording',
    );
    return undefined;
  }

  #status(status: 'queued' | 'running' | 'paused' | 'awaiting_approval', extra = {}): void {
    this.#deps.events.append(this.id, {
      type: 'status',
      data: { trace_id: this.id, status, ...extra },
    });
  }
}

/**
 * Creates the `queued` task row, owned by the plan's tenant and actor (the principal admission
 * was given). The task run calls it once, when the task is queued.
 */
export function createTaskRow(taskId: string, plan: TaskPlan, deps: RunBrowserTaskDeps): void {
  const { input } = plan;
  deps.repository.createTask({
    tenant: plan.tenant,
    actor: plan.actor,
    id: taskId,
    instruction: input.instruction,
    startUrl: input.start_url ?? null,
    maxSteps: input.max_steps ?? deps.loop.maxSteps,
    modelName: deps.model.isReplay ? `${deps.model.name} (replay)` : deps.model.name,
    coordinateMode: deps.loop.coordinateMode,
    createdAt: deps.clock.now(),
  });
}
