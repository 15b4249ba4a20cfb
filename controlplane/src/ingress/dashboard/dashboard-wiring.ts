import type { ScreencastFeed } from '../../browser/operator/screencast-feed.js';
import { screencastOf, type TaskBrowsers } from '../../browser/provider/task-browsers.js';
import { recordingPath } from '../../browser/recording/task-recorder.js';
import type { SessionProfileService } from '../../browser/sessions/session-profile-service.js';
import type { Config } from '../../config.js';
import type { ApprovalService } from '../../governance/approvals/approval-service.js';
import type { AuditTrail } from '../../governance/audit/audit-log.js';
import type { TokenVerifier } from '../../governance/auth/api-tokens.js';
import { hasScope } from '../../governance/auth/scopes.js';
import type { PolicySet } from '../../governance/policy/load-policies.js';
import { createArtifactFiles } from '../../platform/store/artifact-files.js';
import type { DashboardSessionStore } from '../../platform/store/dashboard-session-repository.js';
import { createStaticAdminVerifier, type VerifyAdmin } from './admin-auth.js';
import type { DashboardOptions } from './dashboard-context.js';
import { policySummaries } from './policy-summary.js';
import type { HostsView, SettingsView } from './settings-pages.js';

/** A VerifyAdmin that accepts an API access token (JWT) carrying the `admin` scope. */
export function adminScopeVerifier(verifier: TokenVerifier): VerifyAdmin {
  return async (token) => {
    try {
      return hasScope(await verifier.verify(token), 'admin');
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

/**
 * The read-only settings page from the loaded configuration and the enforced policies (never a
 * secret value). The warm pool is not here: the page reads it live from hostd.
 */
export function settingsFromConfig(
  config: Readonly<Config>,
  browserSource: string,
  policies: PolicySet | null = null,
): SettingsView {
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
          ['Model profile', model.profile],
          ['API key', model.apiKey ? 'set (hidden)' : 'none'],
          ['Timeout', `${model.timeoutMs} ms`],
          ['Retries', `${model.retries} per call, ${model.taskRetries} per task`],
          ['Requests in flight', `at most ${model.concurrency}, shared by all tasks`],
          ['Streaming', streamingRow(model)],
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
      // The start-up description's warm-pool figure is stale by now: the live one is shown below.
      {
        title: 'Browser',
        rows: [['Browsers', browserSource.replace(/, warm pool \d+\/\d+$/, '')]],
      },
    ],
    policies: policies ? policySummaries(policies, config.policyDir) : [],
  };
}

/**
 * Dashboard options for `serve()`: login by the static admin token and/or an admin-scope JWT,
 * each task's screencast (from the browser it holds), the audit trail, the approvals queue,
 * read-only settings and hosts.
 */
export function createDashboardOptions(options: {
  config: Readonly<Config>;
  /** Where tasks' browsers come from, for the settings page. */
  browserSource: string;
  browsers: TaskBrowsers;
  /** Each task's live screencast; default: from the jail-service of the browser it holds. */
  screencast?: ((taskId: string) => ScreencastFeed | null) | undefined;
  /** The dashboard's clock (approval countdowns); default `Date.now`. */
  now?: (() => number) | undefined;
  /** The tenant policies the task pipeline enforces (listed on the settings page). */
  policies?: PolicySet | undefined;
  hosts: () => HostsView | Promise<HostsView>;
  audit?: AuditTrail | undefined;
  approvals?: ApprovalService | undefined;
  sessionProfiles?: SessionProfileService | undefined;
  adminToken?: string | null | undefined;
  tokenVerifier?: TokenVerifier | null | undefined;
  /** Admin sessions shared by replicas (PostgreSQL); absent: in memory. */
  sessionStore?: DashboardSessionStore | undefined;
}): DashboardOptions | null {
  const verifiers: VerifyAdmin[] = [];
  if (options.adminToken) verifiers.push(createStaticAdminVerifier(options.adminToken));
  if (options.tokenVerifier) verifiers.push(adminScopeVerifier(options.tokenVerifier));
  if (verifiers.length === 0) return null;
  return {
    verifyAdmin: anyAdminVerifier(verifiers),
    screencast: options.screencast ?? screencastOf(options.browsers),
    ...(options.now ? { now: options.now } : {}),
    audit: options.audit,
    approvals: options.approvals,
    sessionProfiles: options.sessionProfiles,
    recordingPath: (taskId) => recordingPath(options.config.dataDir, taskId),
    artifacts: createArtifactFiles(options.config.dataDir),
    settings: () =>
      settingsFromConfig(options.config, options.browserSource, options.policies ?? null),
    hosts: options.hosts,
    ...(options.sessionStore ? { sessionStore: options.sessionStore } : {}),
  };
}

function streamingRow(model: Readonly<Config>['model']): string {
  if (!model.stream) return 'off';
  const first = model.firstTokenTimeoutMs;
  return first > 0 ? `on, first token within ${first} ms` : 'on, no first-token limit';
}
