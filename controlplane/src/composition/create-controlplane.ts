import type { ImageCodecChoice } from '@clawdie/kit/images';
import type { Hono } from 'hono';
import type { SessionProfileService } from '../browser/sessions/session-profile-service.js';
import type { Takeover } from '../browser/takeover/takeover-wiring.js';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { ApprovalService } from '../governance/approvals/approval-service.js';
import type { AuditTrail } from '../governance/audit/audit-log.js';
import { createAuthFailureLimiter } from '../governance/auth/auth-failure-limiter.js';
import { loadPolicies } from '../governance/policy/load-policies.js';
import type { RunningDemoSite } from '../platform/demo/demo-site-server.js';
import { claimDataDirAt, type LivenessTimes } from '../platform/ownership/data-dir-owner.js';
import { sweepAndRecordChildren } from '../platform/runner/child-sweep.js';
import type { InstanceKind } from '../platform/store/instance-repository.js';
import type { TaskRepository } from '../platform/store/task-repository.js';
import { openReplicaCommands } from '../tasks/replica-commands.js';
import type { ReplicaCommands } from '../tasks/task-commands.js';
import { createTaskEventFeed } from '../tasks/task-event-feed.js';
import type { TaskService } from '../tasks/task-service.js';
import { createUnavailableTaskService } from '../tasks/unavailable-task-service.js';
import type { ControlplaneAdapters } from './adapters.js';
import { createCloseStack } from './close-stack.js';
import { openStore } from './open-store.js';
import type { ServerAuth } from './server-auth.js';
import { startServingExtras } from './serving-extras.js';
import { openSharedQueue } from './shared-queue.js';
import { startFleet } from './start-fleet.js';
import { type CreateTasks, createTaskPipeline } from './task-pipeline.js';

export interface ControlplaneOptions {
  /**
   * Who runs it, registered as the data dir's instance: `server` (`npm start`: auth, the demo
   * shop without a model, the embedded hostd, recording), `cli` / `mcp` (no listening; refused
   * while a server holds the data dir), `embedded` (tests).
   */
  role?: InstanceKind;
  /** Heartbeat and timeout of this process's instance rows (default: the config's `replicas`). */
  liveness?: LivenessTimes;
}

/**
 * What a running controlplane gives its caller; `close()` releases all of it. `App` is null for
 * the `cli` and `mcp` roles, which never serve HTTP (and so never load the app or the dashboard).
 */
export interface Controlplane<App extends Hono | null = Hono> {
  /** The effective config (`hostd` points at the embedded hostd when one started). */
  config: Readonly<Config>;
  /** REST, MCP, waits, approvals and dashboard; it never listens itself. Null: `cli`, `mcp`. */
  app: App;
  /** The policed task service the API, MCP and `clawdie run` use (503s without a model). */
  tasks: TaskService;
  /** Abort, pause and resume of tasks other replicas run (PostgreSQL, or `adapters.notify` given), else undefined. */
  replicas: ReplicaCommands | undefined;
  /** Another task service on the same browsers and store (the demo: `policed: false`). */
  createTasks: CreateTasks;
  /** The configured model's name, or null when none is configured (the demo then runs). */
  model: { name: string; isReplay: boolean } | null;
  /** One line naming the store: `SQLite <path>` or `PostgreSQL <host>/<db>` (no password). */
  store: string;
  /** One line: where tasks' browsers come from. */
  browsers: string;
  /** One line: what confines the browsers' network, and what does not hold (the banner). */
  egress: string;
  /** The image codec in use and why (the banner names it). */
  images: ImageCodecChoice;
  /** API auth as started (server role only; null otherwise). */
  auth: ServerAuth | null;
  /** The replay demo's shop (server role without a model). */
  demoSite: RunningDemoSite | null;
  /** Read side of the store and the approvals queue, for the CLI's reports and tests. */
  repository: TaskRepository;
  audit: AuditTrail;
  approvals: ApprovalService;
  /** Saved session profiles: save from a live task (hand-back, REST, CLI), list, revoke. */
  sessions: SessionProfileService;
  /** Human takeover (its needs_user registry, links and interactive view). */
  takeover: Takeover;
  /** Records where this server listens, for the message a refused second process prints. */
  listening(url: string): Promise<void>;
  /** Releases everything in reverse order of start; idempotent. */
  close(): Promise<void>;
}

/**
 * The composition root: builds everything once, in order — data-dir claim, the sweep of children
 * a crashed predecessor left running (and the record of ours), (server: auth, demo
 * shop, embedded hostd), store and audit, model and judge, browsers, task security and services,
 * recorder, app. A failed start releases what it opened and rethrows (AppError STARTUP_FAILED
 * for anything that is not already an AppError).
 */
export async function createControlplane(
  loaded: Readonly<Config>,
  adapters: ControlplaneAdapters,
  options: { role: 'cli' | 'mcp' },
): Promise<Controlplane<null>>;
export async function createControlplane(
  loaded: Readonly<Config>,
  adapters: ControlplaneAdapters,
  options?: { role?: Exclude<InstanceKind, 'cli' | 'mcp'>; liveness?: LivenessTimes },
): Promise<Controlplane>;
export async function createControlplane(
  loaded: Readonly<Config>,
  adapters: ControlplaneAdapters,
  options: ControlplaneOptions = {},
): Promise<Controlplane<Hono | null>> {
  const role = options.role ?? 'server';
  const serving = role === 'server';
  const { logger, clock } = adapters;
  const liveness = options.liveness ?? loaded.replicas;
  // Before anything else starts: a second server on the same data directory is refused here.
  const owner = await claimDataDirAt(loaded.databasePath, {
    kind: role,
    dataDir: loaded.dataDir,
    logger,
    clock,
    ...liveness,
  });
  const stack = createCloseStack();
  stack.defer(owner.close);
  try {
    // Before any child starts: a bad policy file refuses the start (PolicyFileError).
    const policies = loadPolicies(loaded.policyDir);
    // Before any child starts: stop what a controlplane killed on this data dir left running.
    stack.defer(await sweepAndRecordChildren(loaded.dataDir, adapters.children, logger));
    // Before anything is opened: CLAWDIE_IMAGE_ENCODER=sharp without sharp refuses to start here.
    const images = await adapters.images(loaded);
    // Token verification (jose) is loaded where it is needed: only a server checks API tokens.
    const auth = serving
      ? await (await import('./server-auth.js')).startServerAuth(loaded, adapters.newAdminToken)
      : null;
    const extras = serving
      ? await startServingExtras(loaded, adapters, stack)
      : { config: loaded, demoSite: null };
    const { config } = extras;
    const store = await openStore(config, owner, { logger, clock, stack, liveness });
    // The store's channel (LISTEN/NOTIFY on PostgreSQL), or one tests share between replicas.
    const notify = adapters.notify ?? store.stores.notify;
    // Every task's events, stored and announced, so that any replica streams any task.
    const feed = createTaskEventFeed({ store: store.stores.taskEvents, notify, clock, logger });
    // One limiter for every refusing route; closed before the store so its last summaries land.
    const refusals = createAuthFailureLimiter({
      audit: store.audit,
      ...config.authFailures,
      onError: (error) => logger.error({ err: error }, 'auth-failed summary not audited'),
    });
    stack.defer(() => refusals.close());
    const model = await adapters.model(config);
    const judge = adapters.judge(config, model);
    const hosts = config.fleet.enabled
      ? await startFleet(config, store, { logger, clock, stack })
      : null;
    const browsers = await adapters.browsers(config, {
      logger,
      audit: store.audit,
      hosts,
      // Its leases name its store too, so a controlplane of another store on the same hostd (another
      // data dir or database) never takes them for orphans (orphan-clones.ts).
      holders: {
        store: await store.stores.instances.storeId(),
        id: store.owner.id,
        live: () => store.owner.live(),
      },
    });
    stack.defer(browsers.close);
    const pipeline = createTaskPipeline({
      ...store,
      feed,
      config,
      browsers,
      clock,
      newId: adapters.newId,
      logger,
      stack,
      images: images.codec,
      judge,
      policies,
      notify,
    });
    const recorder = serving
      ? adapters.recorder?.({
          feedFor: browsers.screencast,
          dataDir: config.dataDir,
          logger,
          children: adapters.children,
        })
      : undefined;
    // PostgreSQL: tasks that may move run on whichever replica has a free browser (README).
    let replicas: ReplicaCommands | undefined;
    const sharedQueue = model
      ? await openSharedQueue(config, {
          ...store,
          role,
          self: store.owner.id,
          notify,
          replicas: () => replicas,
          logger,
          clock,
          stack,
          // Every heartbeat; a row unclaimed past the replica timeout whose job is gone ends.
          sweep: { everyMs: liveness?.heartbeatMs, graceMs: liveness?.timeoutMs },
        })
      : undefined;
    const tasks = model
      ? pipeline.createTasks(model, { recorder, sharedQueue })
      : createUnavailableTaskService(feed);
    stack.defer(tasks.close);
    // Only over a channel other replicas hear: with one process nothing would ever answer.
    const commands =
      adapters.notify || store.stores.backend === 'postgres'
        ? await openReplicaCommands({
            self: store.owner.id,
            tasks,
            notify,
            repository: store.repository,
            audit: store.audit,
            liveInstances: store.owner.pruneGone,
            clock,
            logger,
            newId: adapters.newId,
          })
        : undefined;
    if (commands) stack.defer(commands.close);
    replicas = commands;
    const served = role !== 'cli' && role !== 'mcp';
    // Live views, takeovers and trace files of a task reach the replica that runs it from any
    // (only where HTTP is served: the CLI and MCP stdio never load the forwarding routes).
    const forward =
      replicas && served
        ? (await import('./replica-forwarding.js')).createReplicaForwarding({
            ...store,
            auditKeyFile: config.auditKeyFile,
            clock,
            logger,
          })
        : undefined;
    // Imported only where it is served: the CLI and MCP stdio never load the routes or dashboard.
    const app = !served
      ? null
      : (await import('./build-app.js')).buildApp({
          ...store,
          ...pipeline,
          config,
          tasks,
          replicas,
          forward,
          browsers,
          model,
          auth,
          clock,
          logger,
          images: images.codec,
          judge,
          refusals,
        });
    return {
      config,
      app,
      tasks,
      replicas,
      createTasks: pipeline.createTasks,
      model: model ? { name: model.name, isReplay: model.isReplay } : null,
      store: store.stores.description,
      browsers: browsers.description,
      egress: browsers.egress,
      images,
      auth,
      demoSite: extras.demoSite,
      repository: store.repository,
      audit: store.audit,
      approvals: pipeline.approvals,
      sessions: pipeline.sessions,
      takeover: pipeline.takeover,
      async listening(url) {
        await owner.setUrl(url);
        // Where the other replicas forward to: CLAWDIE_REPLICA_URL, else where it listens.
        if (store.owner !== owner) await store.owner.setUrl(config.replicaUrl ?? url);
        pipeline.takeover.setPublicUrl(url);
      },
      close: stack.close,
    };
  } catch (error) {
    await stack.close().catch((release: unknown) => {
      logger.warn({ err: release }, 'releasing a failed start failed');
    });
    throw error instanceof AppError
      ? error
      : new AppError('STARTUP_FAILED', (error as Error).message, { cause: error });
  }
}
