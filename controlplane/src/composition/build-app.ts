import type { ImageCodec } from '@clawdie/kit/images';
import type { Hono } from 'hono';
import type { Logger } from 'pino';
import type { VisionModel } from '../agent/model/chat-types.js';
import type { BrowserSource } from '../browser/provider/browser-source.js';
import type { SessionProfileService } from '../browser/sessions/session-profile-service.js';
import type { Takeover } from '../browser/takeover/takeover-wiring.js';
import { createBrowserWaitService } from '../browser/wait/browser-wait-service.js';
import type { VisualJudge } from '../browser/wait/wait-types.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { ApprovalService } from '../governance/approvals/approval-service.js';
import type { AuditTrail } from '../governance/audit/audit-log.js';
import type { AuthFailureLimiter } from '../governance/auth/auth-failure-limiter.js';
import type { PolicySet } from '../governance/policy/load-policies.js';
import { createDashboardOptions } from '../ingress/dashboard/dashboard-wiring.js';
import { fleetHosts, hostdHosts, singleJailHosts } from '../ingress/dashboard/hosts-views.js';
import { createApp } from '../ingress/http/app.js';
import { createArtifactFiles } from '../platform/store/artifact-files.js';
import type { Stores } from '../platform/store/stores.js';
import type { TaskRepository } from '../platform/store/task-repository.js';
import type { ReplicaCommands } from '../tasks/task-commands.js';
import type { TaskService } from '../tasks/task-service.js';
import type { ReplicaForwarding } from './replica-forwarding.js';
import type { ServerAuth } from './server-auth.js';

/**
 * The Hono app over the task service: REST, MCP, waits on the tasks' browsers, approvals, and
 * the dashboard when an admin token or an admin-scope JWT can log in.
 */
export function buildApp(deps: {
  config: Readonly<Config>;
  tasks: TaskService;
  /** Commands for tasks other replicas run; absent with one process. */
  replicas: ReplicaCommands | undefined;
  /** Forwarding to the replica that runs a task; absent with one process. */
  forward: ReplicaForwarding | undefined;
  repository: TaskRepository;
  /** On PostgreSQL the dashboard's admin sessions live there, shared by the replicas. */
  stores: Pick<Stores, 'backend' | 'dashboardSessions'>;
  audit: AuditTrail;
  approvals: ApprovalService;
  policies: PolicySet;
  browsers: BrowserSource;
  model: VisionModel | null;
  auth: ServerAuth | null;
  clock: Clock;
  logger: Logger;
  images: ImageCodec;
  /** The vision judge of visual wait conditions (null: they are refused, 400). */
  judge: VisualJudge | null;
  sessions: SessionProfileService;
  takeover: Takeover;
  /** The one failure limiter of every refusing route (the caller closes it). */
  refusals: AuthFailureLimiter;
}): Hono {
  const { config, browsers, audit, approvals } = deps;
  const verifier = deps.auth?.auth?.verifier;
  const dashboard = createDashboardOptions({
    config,
    browserSource: browsers.description,
    browsers: browsers.browsers,
    screencast: browsers.screencast,
    now: deps.clock.now,
    policies: deps.policies,
    hosts: browsers.fleet
      ? fleetHosts(browsers.fleet.registry, browsers.browsers, browsers.fleet.concurrency)
      : browsers.hostd
        ? hostdHosts(browsers.hostd.client, browsers.hostd.url, browsers.hostd.concurrency)
        : singleJailHosts(
            { url: browsers.local?.jail.url ?? '', startedAt: deps.clock.now() },
            browsers.browsers,
          ),
    audit,
    approvals,
    sessionProfiles: deps.sessions,
    adminToken: deps.auth?.adminToken ?? null,
    tokenVerifier: verifier,
    sessionStore: deps.stores.backend === 'postgres' ? deps.stores.dashboardSessions : undefined,
  });
  return createApp({
    tasks: deps.tasks,
    replicas: deps.replicas,
    forward: deps.forward,
    repository: deps.repository,
    logger: deps.logger,
    defaultMaxSteps: config.loop.maxSteps,
    artifacts: createArtifactFiles(config.dataDir),
    maxBodyBytes: config.maxBodyBytes,
    auth: verifier ? { verifier } : null,
    refusals: deps.refusals,
    trustedProxies: config.trustedProxies,
    audit,
    approvals,
    sessions: deps.sessions,
    takeover: deps.takeover.app,
    waits: createBrowserWaitService({
      browsers: browsers.browsers,
      local: browsers.local,
      images: deps.images,
      judge: deps.judge ?? undefined,
    }),
    dashboard: dashboard ?? undefined,
    describe: () => ({
      model: { name: deps.model?.name ?? 'not configured', replay: deps.model?.isReplay ?? false },
      jail: { url: browsers.hostd?.url ?? browsers.local?.jail.url ?? '' },
    }),
  });
}
