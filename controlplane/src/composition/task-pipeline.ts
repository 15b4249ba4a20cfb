import type { ImageCodec } from '@clawdie/kit/images';
import type { Logger } from 'pino';
import type { VisionModel } from '../agent/model/chat-types.js';
import { configuredProfile } from '../agent/model/configured-model.js';
import type { BrowserSource } from '../browser/provider/browser-source.js';
import { failingOperator } from '../browser/provider/lease-browser.js';
import type { TaskRecorder } from '../browser/recording/task-recorder.js';
import type { SessionProfileService } from '../browser/sessions/session-profile-service.js';
import { createSessionProfiles } from '../browser/sessions/session-wiring.js';
import { createTakeover, type Takeover } from '../browser/takeover/takeover-wiring.js';
import type { VisualJudge } from '../browser/wait/wait-types.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { ApprovalService } from '../governance/approvals/approval-service.js';
import type { AuditTrail } from '../governance/audit/audit-log.js';
import type { PolicySet } from '../governance/policy/load-policies.js';
import { createTaskSecurity } from '../governance/policy/task-security.js';
import type { NotifyChannel } from '../platform/notify/notify-channel.js';
import type { DataDirOwner } from '../platform/ownership/data-dir-owner.js';
import { createArtifactFiles } from '../platform/store/artifact-files.js';
import { createScreenshotFiles } from '../platform/store/screenshot-files.js';
import type { Stores } from '../platform/store/stores.js';
import type { TaskRepository } from '../platform/store/task-repository.js';
import { createKeptSessionLocator } from '../tasks/kept-session-place.js';
import type { SharedQueueOptions } from '../tasks/shared-task-queue.js';
import type { LoopDefaults } from '../tasks/task-deps.js';
import type { TaskEventFeed } from '../tasks/task-event-feed.js';
import { createTaskService, type TaskService } from '../tasks/task-service.js';
import type { CloseStack } from './close-stack.js';

/** Builds further task services on the same store, browsers and security (demo, tests). */
export type CreateTasks = (
  model: VisionModel,
  options?: {
    policed?: boolean;
    recorder?: TaskRecorder | undefined;
    /** Dispatch through the replicas' shared queue (only the controlplane's own task service). */
    sharedQueue?: SharedQueueOptions | undefined;
  },
) => TaskService;

export interface TaskPipeline {
  /** Tenant policies, validated at start. */
  policies: PolicySet;
  /** Supervisor approvals (API; Telegram when configured). */
  approvals: ApprovalService;
  /** Saved session profiles (`credential_mode: session`, /v1/sessions, hand-back). */
  sessions: SessionProfileService;
  /** Human takeover: links, sessions and the needs_user wait, shared by tasks and routes. */
  takeover: Takeover;
  createTasks: CreateTasks;
}

export function loopDefaults(config: Readonly<Config>): LoopDefaults {
  return {
    profile: configuredProfile(config),
    actionSpace: config.loop.actionSpace,
    maxSteps: config.loop.maxSteps,
    maxParseFailures: config.loop.maxParseFailures,
    modelRetryBudget: config.model.taskRetries,
    imageWindow: config.model.imageWindow,
    imageEncoding: config.model.imageEncoding,
    waitMs: config.loop.waitMs,
    scrollAmount: config.loop.scrollAmount,
    smartWait: config.loop.smartWait,
    guard: config.loop.guard,
  };
}

/**
 * Task security (policies, approvals, Telegram, vault, grants, guards) and the factory of task
 * services over `browsers`: policed by the tenant policies unless `policed: false` (the labelled
 * demo). Telegram is stopped through `stack`.
 */
export function createTaskPipeline(deps: {
  config: Readonly<Config>;
  stores: Stores;
  repository: TaskRepository;
  /** Every task's numbered events, stored and announced (SSE on any replica). */
  feed: TaskEventFeed;
  audit: AuditTrail;
  browsers: BrowserSource;
  clock: Clock;
  newId: () => string;
  logger: Logger;
  stack: CloseStack;
  images: ImageCodec;
  /** The process's vision judge: every task's visual conditions; none refuses them at admission. */
  judge: VisualJudge | null;
  /** The tenant policies, loaded (and so validated) before any child started. */
  policies: PolicySet;
  /** What replicas tell each other (answered approvals). */
  notify: NotifyChannel;
  /** This replica's registration (its id, the live replicas): where kept browsers are. */
  owner?: Pick<DataDirOwner, 'id' | 'live'>;
}): TaskPipeline {
  const { config, browsers } = deps;
  const security = createTaskSecurity({
    config,
    stores: deps.stores,
    audit: deps.audit,
    clock: deps.clock,
    logger: deps.logger,
    newId: deps.newId,
    visualJudge: deps.judge !== null,
    tasks: deps.repository,
    policies: deps.policies,
    notify: deps.notify,
  });
  deps.stack.defer(security.close);
  const sessions = createSessionProfiles({
    config,
    stores: deps.stores,
    audit: deps.audit,
    clock: deps.clock,
    repository: deps.repository,
    browsers: browsers.browsers,
    approver: security.approvals,
    logger: deps.logger,
  });
  deps.stack.defer(sessions.close);
  const takeover = createTakeover({
    ...config.takeover,
    repository: deps.repository,
    audit: deps.audit,
    clock: deps.clock,
    logger: deps.logger,
    notify: security.notices,
    // Hand back can save the clone's login first, while the task still holds the clone.
    onHandBack: async (taskId, principal, save) => {
      if (save) await sessions.service.saveSessionFromTask({ taskId, ...save }, principal);
    },
  });
  // Only a task that bypasses the task service would use this operator; with hostd there is no
  // shared browser, and it says so.
  const operator =
    browsers.local?.operator ??
    failingOperator(new AppError('NO_SHARED_BROWSER', 'tasks run in hostd clones'));
  const screenshots = createScreenshotFiles(config.dataDir);
  const loop = loopDefaults(config);
  // PostgreSQL replicas: a follow-up of a browser another replica keeps says where it is.
  const { owner } = deps;
  const locateKeptSession =
    deps.stores.backend === 'postgres' && owner
      ? createKeptSessionLocator({
          self: owner.id,
          live: () => owner.live(),
          repository: deps.repository,
        })
      : undefined;
  return {
    policies: security.policies,
    approvals: security.approvals,
    sessions: sessions.service,
    takeover,
    createTasks(model, options = {}) {
      return createTaskService(
        {
          repository: deps.repository,
          feed: deps.feed,
          screenshots,
          artifacts: createArtifactFiles(config.dataDir),
          model,
          operator,
          clock: deps.clock,
          images: deps.images,
          ...(deps.judge ? { judge: deps.judge } : {}),
          prices: config.model.prices,
          logger: deps.logger,
          loop,
          newId: deps.newId,
          audit: deps.audit,
          admission: options.policed === false ? security.unpoliced : security.admission,
          guards: security.guards,
          prepareLease: sessions.prepareLease,
          takeover: takeover.tasks,
          ...(options.recorder ? { recorder: options.recorder } : {}),
          ...(options.sharedQueue ? { sharedQueue: options.sharedQueue } : {}),
          ...(locateKeptSession ? { locateKeptSession } : {}),
        },
        undefined,
        browsers.provider,
      );
    },
  };
}
