// What a task service shares with every run it starts (task-run.ts).
import type { ImageCodec } from '@clawdie/kit/images';
import type { Logger } from 'pino';
import type { LoopOptions } from '../agent/loop/loop-types.js';
import type { DoneVerifier } from '../agent/loop/verify-done.js';
import type { VisionModel } from '../agent/model/chat-types.js';
import type { BrowserOperator } from '../browser/operator/browser-operator.js';
import type { BrowserLease, BrowserProvider } from '../browser/provider/browser-provider.js';
import type { KeptBrowser, KeptBrowsers } from '../browser/provider/kept-browsers.js';
import type { TaskRecorder } from '../browser/recording/task-recorder.js';
import type { LeasePreparer } from '../browser/sessions/session-injector.js';
import type { TakeoverDeps } from '../browser/takeover/task-handoff.js';
import type { VisualJudge } from '../browser/wait/wait-types.js';
import type { Clock } from '../clock.js';
import type { ModelPrices } from '../config-prices.js';
import type { AuditLog } from '../governance/audit/audit-log.js';
import type { TaskGuards } from '../governance/policy/task-guards.js';
import type { ArtifactFiles } from '../platform/store/artifact-files.js';
import type { ScreenshotFiles } from '../platform/store/screenshot-files.js';
import type { TaskRepository } from '../platform/store/task-repository.js';
import type { RunListener } from './run-stream.js';
import type { TaskEventFeed } from './task-event-feed.js';
import type { TaskEventLog } from './task-events.js';
import type { TaskSlots } from './task-slots.js';

/** The configured loop options, and whether the task run wraps its operator in the smart wait. */
export type LoopDefaults = Omit<LoopOptions, 'instruction'> & { smartWait?: boolean | undefined };

/** What every task of a service is run with. */
export interface TaskDeps {
  repository: TaskRepository;
  screenshots: ScreenshotFiles;
  model: VisionModel;
  clock: Clock;
  /** The process's image codec (platform.ts selects it once: CLAWDIE_IMAGE_ENCODER). */
  images: ImageCodec;
  logger: Logger;
  loop: LoopDefaults;
  /** Every task's numbered events in the store, followable from any replica (SSE). */
  feed: TaskEventFeed;
  /** Where task start/end, actions and refusals are recorded (default: nowhere). */
  audit?: AuditLog | undefined;
  /**
   * The process's vision judge: `success_criteria.visual` and a visual `logged_in_check` (absent:
   * admission refuses them; a task that gets here anyway reports them unverified / not logged in).
   */
  judge?: VisualJudge | undefined;
  /** Checks `success_criteria` on finished(); default: the operator's URL, and `judge`'s verdict. */
  verifier?: DoneVerifier | undefined;
  /** Where downloaded files are stored (absent: every download is denied). */
  artifacts?: ArtifactFiles | undefined;
  /** Records `record: true` tasks (absent: they run unrecorded, warned). */
  recorder?: TaskRecorder | undefined;
  /** CLAWDIE_MODEL_PRICES: prices a task's usage (absent: no cost). */
  prices?: ModelPrices | undefined;
}

/** What every run of one task service shares. */
export interface TaskRunDeps extends TaskDeps {
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
 * How a run starts: on a kept browser (`held`) with the caller's listener of every event; or
 * `adopted` from the shared queue (shared-task-queue.ts: its `queued` row and first event exist,
 * this replica claimed it) with `slot`, the place the dispatcher holds for it (absent: it queues
 * for one here), `aborted` ending it before it starts.
 */
export type RunOptions = {
  held?: KeptBrowser | undefined;
  listener?: RunListener | undefined;
  slot?: (() => void) | undefined;
  aborted?: boolean;
  adopted?: boolean;
};

/** What a task taken from the shared queue runs with (TaskRun.adopt). */
export type AdoptOptions = Pick<RunOptions, 'listener' | 'slot' | 'aborted'>;
