import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { ApprovalService } from './approvals/approval-service.js';
import type { AuditTrail } from './audit/audit-log.js';
import { openAuditTrail } from './audit/open-audit-trail.js';
import { auditInterruptedTasks } from './audit/task-audit.js';
import { systemClock } from './clock.js';
import type { Config } from './config.js';
import type { SecretVault } from './credentials/secret-vault.js';
import { AppError } from './errors.js';
import { type BrowserSource, openBrowserSource } from './jails/browser-source.js';
import { failingOperator } from './jails/lease-browser.js';
import type { VisionModel } from './model/chat-types.js';
import { createOpenAiCompatibleModel } from './model/openai-compatible-model.js';
import { loadReplayModel } from './model/replay-model.js';
import { claimDataDir, type DataDirOwner } from './ownership/data-dir-owner.js';
import type { PolicySet } from './policy/load-policies.js';
import { createTaskSecurity } from './policy/task-security.js';
import type { TaskRecorder } from './recording/task-recorder.js';
import { createAuditRepository } from './store/audit-repository.js';
import { tightenDataDir } from './store/data-dir-modes.js';
import { type Db, openDatabase } from './store/database.js';
import { createScreenshotFiles } from './store/screenshot-files.js';
import { createTaskRepository, type TaskRepository } from './store/task-repository.js';
import { createTakeover, type Takeover } from './takeover/takeover-wiring.js';
import type { LoopDefaults, RunBrowserTaskDeps } from './tasks/run-browser-task.js';
import { createTaskService, type TaskService } from './tasks/task-service.js';

/** Everything a running controlplane holds; `close()` releases it all (browser included). */
export interface Platform {
  config: Readonly<Config>;
  repository: TaskRepository;
  /** The hash-chained audit log in the same database. */
  audit: AuditTrail;
  /** The open database, for the other repositories (approvals, secrets). */
  db: Db;
  /** Where tasks get their browsers (hostd clones or the one local browser) and who holds which. */
  browsers: BrowserSource;
  /** Tenant policies, validated at start. */
  policies: PolicySet;
  /** Operator approvals (API; Telegram when configured). */
  approvals: ApprovalService;
  /** The secrets vault; null until a secrets key exists. */
  vault: SecretVault | null;
  /** Null when neither CLAWDIE_MODEL_URL nor CLAWDIE_REPLAY_FILE is set. */
  model: VisionModel | null;
  taskDeps(model: VisionModel): RunBrowserTaskDeps;
  /**
   * A TaskService for `model` on the platform's browsers (a clone per task with hostd), under the
   * tenant policy unless `policed: false` (the labelled demo).
   */
  /** Human takeover (links, sessions, the needs_user wait), shared by tasks and routes. */
  takeover: Takeover;
  createTasks(
    model: VisionModel,
    options?: { policed?: boolean; recorder?: TaskRecorder | undefined },
  ): TaskService;
  close(): Promise<void>;
}

export function loopDefaults(config: Readonly<Config>): LoopDefaults {
  return {
    coordinateMode: config.model.version,
    actionSpace: config.loop.actionSpace,
    maxSteps: config.loop.maxSteps,
    maxParseFailures: config.loop.maxParseFailures,
    imageWindow: config.model.imageWindow,
    jpegQuality: config.model.jpegQuality,
    waitMs: config.loop.waitMs,
    scrollAmount: config.loop.scrollAmount,
    smartWait: config.loop.smartWait,
    guard: config.loop.guard,
  };
}

/** Builds the configured model, or null when none is configured. */
export async function createModel(config: Readonly<Config>): Promise<VisionModel | null> {
  if (config.model.replayFile) return loadReplayModel(config.model.replayFile);
  if (!config.model.url) return null;
  return createOpenAiCompatibleModel({
    baseUrl: config.model.url,
    model: config.model.name,
    apiKey: config.model.apiKey,
    timeoutMs: config.model.timeoutMs,
    retries: config.model.retries,
    maxTokens: config.model.maxTokens,
    temperature: config.model.temperature,
  });
}

/**
 * Opens the store, registers this process in it (`owner`, claimed by the caller, else claimed
 * here as `embedded`; released by `close()` or a failed start), marks the tasks of instances that
 * are gone as INTERRUPTED, builds the model, and connects to hostd, the configured jail-service,
 * or starts a local one. On failure, releases what it already opened before rethrowing.
 */
export async function startPlatform(
  config: Readonly<Config>,
  logger: Logger,
  env: Record<string, string | undefined>,
  claimed?: DataDirOwner,
): Promise<Platform> {
  const tightened = tightenDataDir(config.dataDir, config.databasePath);
  if (tightened.length > 0)
    logger.warn({ changes: tightened }, 'tightened data dir permissions to owner-only');
  const database = openDatabase(config.databasePath);
  let browsers: BrowserSource | null = null;
  let owner = claimed;
  let closeAudit = () => {};
  try {
    owner ??= claimDataDir(database.db, { kind: 'embedded', dataDir: config.dataDir, logger });
    const instance = owner;
    const repository = createTaskRepository(database.db, { owner: instance.id });
    const audit = openAuditTrail(createAuditRepository(database.db), {
      keyFile: config.auditKeyFile,
      clock: systemClock,
      mode: 'append',
      logger,
    });
    closeAudit = audit.close;
    const interrupted = repository.failInterrupted(Date.now(), instance.pruneGone());
    auditInterruptedTasks(audit, interrupted, logger);
    if (interrupted.length > 0)
      logger.warn(
        { interrupted: interrupted.length },
        'marked tasks of controlplanes that are gone as INTERRUPTED',
      );
    const model = await createModel(config);
    const source = await openBrowserSource(config, { logger, env, audit });
    browsers = source;
    // Only a task that bypasses the task service would use this operator; with hostd there is no
    // shared browser, and it says so.
    const operator =
      source.local?.operator ??
      failingOperator(new AppError('NO_SHARED_BROWSER', 'tasks run in hostd clones'));
    const screenshots = createScreenshotFiles(config.dataDir);
    const security = createTaskSecurity({
      config,
      db: database.db,
      audit,
      clock: systemClock,
      logger,
    });
    const loop = loopDefaults(config);
    const takeover = createTakeover({
      ...config.takeover,
      repository,
      audit,
      clock: systemClock,
      logger,
      notify: security.notices,
    });
    const taskDeps = (taskModel: VisionModel): RunBrowserTaskDeps => ({
      repository,
      screenshots,
      model: taskModel,
      operator,
      clock: systemClock,
      logger,
      loop,
      newId: randomUUID,
      audit,
    });
    return {
      config,
      repository,
      audit,
      db: database.db,
      browsers: source,
      policies: security.policies,
      approvals: security.approvals,
      vault: security.vault,
      takeover,
      model,
      taskDeps,
      createTasks(taskModel, options = {}) {
        return createTaskService(
          {
            ...taskDeps(taskModel),
            admission: options.policed === false ? security.unpoliced : security.admission,
            guards: security.guards,
            takeover: takeover.tasks,
            ...(options.recorder ? { recorder: options.recorder } : {}),
          },
          undefined,
          source.provider,
        );
      },
      async close() {
        await security.close();
        await source.close();
        closeAudit();
        instance.close();
        database.close();
      },
    };
  } catch (error) {
    await browsers?.close();
    closeAudit();
    owner?.close();
    database.close();
    throw error instanceof AppError
      ? error
      : new AppError('STARTUP_FAILED', (error as Error).message, { cause: error });
  }
}
