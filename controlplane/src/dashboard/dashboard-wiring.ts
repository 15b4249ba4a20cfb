import type { ApprovalService } from '../approvals/approval-service.js';
import type { AuditTrail } from '../audit/audit-log.js';
import type { TokenVerifier } from '../auth/api-tokens.js';
import { hasScope } from '../auth/scopes.js';
import type { Config } from '../config.js';
import { createScreencastFeed } from '../operator/screencast-feed.js';
import { recordingPath } from '../recording/task-recorder.js';
import type { TaskRepository } from '../store/task-repository.js';
import type { TaskService } from '../tasks/task-service.js';
import { createStaticAdminVerifier, type VerifyAdmin } from './admin-auth.js';
import type { DashboardOptions } from './dashboard-context.js';
import type { HostsView, SettingsView } from './settings-pages.js';

/** A VerifyAdmin that accepts an API access token (JWT) carrying the `admin` scope. */
export function adminScopeVerifier(verifier: TokenVerifier): VerifyAdmin {
  return async (token) => {
    try {
      return hasScope(await verifier.verify(`Bearer ${token}`), 'admin');
    } catch {
      return false;
    }
  };
}

/** Accepts a token when any of the verifiers does (static admin token, admin-scope JWT). */
export function anyAdminVerifier(verifiers: readonly VerifyAdmin[]): VerifyAdmin {
  return async (token) => {
    for (const verify of verifiers) if (await verify(token)) return true;
    return false;
  };
}

/** The read-only settings page from the loaded configuration (never a secret value). */
export function settingsFromConfig(config: Readonly<Config>, jailUrl: string): SettingsView {
  const { model, loop } = config;
  return {
    groups: [
      {
        title: 'Model endpoint',
        rows: [
          [
            'URL',
            model.url ?? (model.replayFile ? `replay file ${model.replayFile}` : 'not configured'),
          ],
          ['Model', model.name],
          ['UI-TARS version', model.version],
          ['API key', model.apiKey ? 'set (hidden)' : 'none'],
          ['Timeout', `${model.timeoutMs} ms, ${model.retries} retries`],
          ['Images per request', String(model.imageWindow)],
        ],
      },
      {
        title: 'Agent loop',
        rows: [
          ['Action space', loop.actionSpace],
          ['Max steps', String(loop.maxSteps)],
          ['Max unusable replies', String(loop.maxParseFailures)],
          ['wait() duration', `${loop.waitMs} ms`],
          ['Scroll amount', `${loop.scrollAmount} px`],
        ],
      },
      { title: 'Browser', rows: [['jail-service', jailUrl]] },
    ],
    policies: [],
  };
}

/** Hosts view for a controlplane driving one jail-service (until hostd hands out clones). */
export function singleJailHosts(
  jail: { url: string; startedAt: number },
  tasks: TaskService,
  activeTaskId: () => string | null,
): () => HostsView {
  return () => {
    const taskId = activeTaskId();
    return {
      clones: [
        {
          id: 'local',
          url: jail.url,
          state: 'ok',
          startedAt: jail.startedAt,
          taskId: taskId && tasks.isActive(taskId) ? taskId : null,
        },
      ],
      warmPool: null,
      limits: [['Concurrent tasks', '1 (tasks queue for the one browser)']],
      source: 'One jail-service driven by this controlplane; hostd clones are not configured.',
    };
  };
}

/**
 * Dashboard options for `serve()`: login by the static admin token and/or an admin-scope JWT,
 * the jail-service screencast, the audit trail, the approvals queue, read-only settings and hosts.
 */
export function createDashboardOptions(options: {
  config: Readonly<Config>;
  jail: { url: string; token: string };
  tasks: TaskService;
  audit?: AuditTrail | undefined;
  approvals?: ApprovalService | undefined;
  adminToken?: string | null | undefined;
  tokenVerifier?: TokenVerifier | null | undefined;
  repository: TaskRepository;
}): DashboardOptions | null {
  const verifiers: VerifyAdmin[] = [];
  if (options.adminToken) verifiers.push(createStaticAdminVerifier(options.adminToken));
  if (options.tokenVerifier) verifiers.push(adminScopeVerifier(options.tokenVerifier));
  if (verifiers.length === 0) return null;
  return {
    verifyAdmin: anyAdminVerifier(verifiers),
    screencast: createScreencastFeed(options.jail),
    audit: options.audit,
    approvals: options.approvals,
    recordingPath: (taskId) => recordingPath(options.config.dataDir, taskId),
    settings: () => settingsFromConfig(options.config, options.jail.url),
    hosts: singleJailHosts(
      { url: options.jail.url, startedAt: Date.now() },
      options.tasks,
      () =>
        options.repository.listTasks({ limit: 1, offset: 0, status: 'running' }).tasks[0]?.id ??
        null,
    ),
  };
}
