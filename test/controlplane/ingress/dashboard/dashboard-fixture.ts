// The dashboard as `npm start` serves it: the composition root (role server, the admin token
// below) over the fake operator and a per-task script model, in a temp data dir.
import type { Hono } from 'hono';
import type { VisionModel } from '../../../../controlplane/src/agent/model/chat-types.js';
import type { BrowserOperator } from '../../../../controlplane/src/browser/operator/browser-operator.js';
import type { ScreencastFeed } from '../../../../controlplane/src/browser/operator/screencast-feed.js';
import type { TakeoverAppDeps } from '../../../../controlplane/src/browser/takeover/takeover-app-deps.js';
import type { Clock } from '../../../../controlplane/src/clock.js';
import type { ApprovalService } from '../../../../controlplane/src/governance/approvals/approval-service.js';
import type { AuditTrail } from '../../../../controlplane/src/governance/audit/audit-log.js';
import { createStaticAdminVerifier } from '../../../../controlplane/src/ingress/dashboard/admin-auth.js';
import type { DashboardOptions } from '../../../../controlplane/src/ingress/dashboard/dashboard-routes.js';
import { createApp } from '../../../../controlplane/src/ingress/http/app.js';
import type { TaskRepository } from '../../../../controlplane/src/platform/store/task-repository.js';
import type { TaskService } from '../../../../controlplane/src/tasks/task-service.js';
import { createTaskService } from '../../../../controlplane/src/tasks/task-service.js';
import { createTestControlplane } from '../../../support/controlplane.js';
import { createPerTaskScriptModel } from '../../../support/per-task-script-model.js';
import { silentLogger } from '../../../support/silent-logger.js';
import { submit } from '../../../support/submit-task.js';
import { createTestTaskDeps } from '../../../support/test-task-deps.js';

export const ADMIN_TOKEN = 'dashboard-admin-token-0123456789';

/** A click at model (644, 406) → screen (640, 400) on a 1280×800 fake screen, then an answer. */
export const clickThenFinish = [
  "Thought: Click the blue button.\nAction: click(start_box='<|box_start|>(644,406)<|box_end|>')",
  "Thought: Scroll a little.\nAction: scroll(start_box='<|box_start|>(300,300)<|box_end|>', direction='down')",
  'Thought: Done.\nAction: finished(content=\'{"answer": 42}\')',
];

export interface DashboardFixture {
  app: Hono;
  tasks: TaskService;
  repository: TaskRepository;
  /** The controlplane's audit trail (what the audit page lists). */
  audit: AuditTrail;
  /** The controlplane's approvals queue (what the approvals pages list). */
  approvals: ApprovalService;
  dataDir: string;
  /** Logs in through the form and returns the `cookie` header value. */
  login(): Promise<string>;
  /** Runs one task to its end and returns its id. */
  runTask(instruction?: string): Promise<string>;
  close(): Promise<void>;
}

export async function createDashboardFixture(
  options: {
    model?: VisionModel;
    operator?: BrowserOperator;
    /** CLAWDIE_* on top of the defaults (e.g. CLAWDIE_DATA_DIR, CLAWDIE_POLICY_DIR). */
    env?: Record<string, string>;
    clock?: Clock;
    newId?: () => string;
    screencast?: (taskId: string) => ScreencastFeed | null;
  } = {},
): Promise<DashboardFixture> {
  const controlplane = await createTestControlplane({
    role: 'server',
    model: options.model ?? createPerTaskScriptModel(clickThenFinish),
    env: { CLAWDIE_ADMIN_TOKEN: ADMIN_TOKEN, CLAWDIE_MAX_STEPS: '6', ...options.env },
    ...(options.operator ? { browsers: options.operator } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.newId ? { newId: options.newId } : {}),
    ...(options.screencast ? { screencast: options.screencast } : {}),
  });
  const { app, tasks } = controlplane;
  return {
    app,
    tasks,
    repository: controlplane.repository,
    audit: controlplane.audit,
    approvals: controlplane.approvals,
    dataDir: controlplane.dataDir,
    login: () => logIn(app),
    async runTask(instruction = 'Press the blue button and report the answer') {
      const { taskId, done } = await submit(tasks, { instruction });
      await done;
      return taskId;
    },
    close: controlplane.close,
  };
}

export type DashboardPagesFixture = Omit<DashboardFixture, 'audit' | 'approvals' | 'close'> & {
  close(): void;
};

/**
 * For dashboard page tests that stub what a page reads (an audit trail with tampered rows, a
 * fixed settings or hosts view, a separate approvals queue, a login limiter): the HTTP app alone
 * over the task service and those stubs — the routing and rendering in isolation, not the
 * controlplane (use `createDashboardFixture` for that).
 */
export function createDashboardPagesFixture(options: {
  dashboard: Partial<DashboardOptions>;
  model?: VisionModel;
  /** Builds the takeover deps around the fixture's repository (`/takeover`, Take over). */
  takeover?: (repository: TaskRepository) => TakeoverAppDeps;
}): DashboardPagesFixture {
  const test = createTestTaskDeps({
    model: options.model ?? createPerTaskScriptModel(clickThenFinish),
    loop: { maxSteps: 6 },
  });
  const tasks = createTaskService(test.deps);
  const app = createApp({
    tasks,
    repository: test.repository,
    logger: silentLogger,
    defaultMaxSteps: 6,
    describe: () => ({ model: { name: 'script', replay: true }, jail: { url: 'http://x' } }),
    dashboard: { verifyAdmin: createStaticAdminVerifier(ADMIN_TOKEN), ...options.dashboard },
    ...(options.takeover ? { takeover: options.takeover(test.repository) } : {}),
  });
  return {
    app,
    tasks,
    repository: test.repository,
    dataDir: test.dataDir,
    login: () => logIn(app),
    async runTask(instruction = 'Press the blue button and report the answer') {
      const { taskId, done } = await submit(tasks, { instruction });
      await done;
      return taskId;
    },
    close: test.close,
  };
}

export async function logIn(app: Hono): Promise<string> {
  const response = await app.request('/dashboard/login', {
    method: 'POST',
    body: new URLSearchParams({ token: ADMIN_TOKEN, next: '/dashboard' }),
  });
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  if (response.status !== 303 || !cookie) throw new Error(`login failed: ${response.status}`);
  return cookie;
}
