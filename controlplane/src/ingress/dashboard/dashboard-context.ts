import { readFile } from 'node:fs/promises';
import type { Context } from 'hono';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { ScreencastFeed } from '../../browser/operator/screencast-feed.js';
import type { SessionProfileService } from '../../browser/sessions/session-profile-service.js';
import type { TakeoverAppDeps } from '../../browser/takeover/takeover-app-deps.js';
import type { ApprovalService } from '../../governance/approvals/approval-service.js';
import type { AuditTrail } from '../../governance/audit/audit-log.js';
import type { AuthFailureLimiter } from '../../governance/auth/auth-failure-limiter.js';
import type { ArtifactFiles } from '../../platform/store/artifact-files.js';
import type { DashboardSessionStore } from '../../platform/store/dashboard-session-repository.js';
import { type TaskRecord, taskStatusValues } from '../../platform/store/task-records.js';
import type { TaskRepository } from '../../platform/store/task-repository.js';
import type { ReplicaCommands } from '../../tasks/task-commands.js';
import type { TaskService } from '../../tasks/task-service.js';
import type { ReplicaForward } from '../http/replica-forward/forward-to-owner.js';
import type { VerifyAdmin } from './admin-auth.js';
import type { Html, Section } from './layout.js';
import type { HostsView, SettingsView } from './settings-pages.js';

export interface DashboardOptions {
  /** Checks the admin token typed into the login form (see createStaticAdminVerifier). */
  verifyAdmin: VerifyAdmin;
  /**
   * The live feed of the browser a running task holds (null: none); without it the live view
   * shows controls only.
   */
  screencast?: ((taskId: string) => ScreencastFeed | null) | undefined;
  /** The hash-chained audit trail; adds the Audit log page when present. */
  audit?: AuditTrail | undefined;
  /** Supervisor approvals; adds the Approvals page (answers go through the same service). */
  approvals?: ApprovalService | undefined;
  /** Saved session profiles; adds the Saved sessions page (list and revoke). */
  sessionProfiles?: SessionProfileService | undefined;
  /** Where a task's MP4 recording would be; adds the Recording link when that file exists. */
  recordingPath?: ((taskId: string) => string) | undefined;
  /** Tasks' downloaded files; adds the Downloads list to the task page. */
  artifacts?: Pick<ArtifactFiles, 'list'> | undefined;
  settings?: (() => SettingsView) | undefined;
  hosts?: (() => HostsView | Promise<HostsView>) | undefined;
  /** Tenant label shown for every task until tenants exist. */
  tenant?: string | undefined;
  sessionTtlMs?: number | undefined;
  /**
   * Where admin sessions live when replicas share the store (a login holds on every replica, a
   * logout ends it on all); absent: in this process's memory.
   */
  sessionStore?: DashboardSessionStore | undefined;
  now?: (() => number) | undefined;
  /**
   * Counts failed logins per client address like the API's bearer failures (aggregated audit
   * rows, 429 past the limit); mounted in the app, the app's one limiter unless given.
   */
  loginFailures?: AuthFailureLimiter | undefined;
}

export interface DashboardDeps extends DashboardOptions {
  tasks: TaskService;
  /** Loop controls for tasks other replicas run; absent: this process's tasks only. */
  replicas?: ReplicaCommands | undefined;
  repository: TaskRepository;
  logger: Logger;
  /** Replicas: task pages needing the running replica's memory or files are forwarded to it. */
  forward?: ReplicaForward | undefined;
  /** Human takeover: a needs_user task's live view offers "Take over" (admin). */
  takeover?: Pick<TakeoverAppDeps, 'links' | 'registry' | 'audit'> | undefined;
}

/** What every dashboard route module gets. */
export interface DashboardContext {
  deps: DashboardDeps;
  tenant: string;
  now: () => number;
  render: (
    c: Context,
    title: string,
    section: Section,
    body: Html,
    script?: string,
  ) => Response | Promise<Response>;
  notFound: (c: Context, what: string) => Response | Promise<Response>;
  requireTask: (c: Context) => Promise<TaskRecord | null>;
}

/** Reads a stored JPEG for a dashboard route; null when the file is gone. */
export async function readJpeg(path: string | null): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!path) return null;
  const bytes = await readFile(path).catch(() => null);
  return bytes ? new Uint8Array(bytes) : null;
}

export const listQuerySchema = z.object({
  status: z
    .enum([...taskStatusValues, ''])
    .optional()
    .transform((value) => value || undefined)
    .catch(undefined),
  q: z.string().trim().max(200).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(1_000_000).optional().catch(undefined),
});

const text = (max: number) => z.string().trim().max(max).catch('').default('');
const minute = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/)
  .catch('')
  .default('');

/** The audit page's query: filters (times in UTC, as a datetime-local input sends them), paging. */
export const auditQuerySchema = z.object({
  task: text(100),
  tenant: text(64),
  type: z
    .string()
    .regex(/^[a-z-]{1,40}$/)
    .catch('')
    .default(''),
  from: minute,
  to: minute,
  before: z.coerce.number().int().min(1).optional().catch(undefined),
});

/** Epoch ms of a `YYYY-MM-DDTHH:MM[:SS]` UTC time; `end` takes the last ms of that minute/second. */
export function utcMs(value: string, end = false): number | undefined {
  if (!value) return undefined;
  const ms = Date.parse(`${value}Z`);
  if (Number.isNaN(ms)) return undefined;
  return end ? ms + (value.length > 16 ? 999 : 59_999) : ms;
}
