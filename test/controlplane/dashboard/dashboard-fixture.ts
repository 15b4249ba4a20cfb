import type { Hono } from 'hono';
import { createStaticAdminVerifier } from '../../../controlplane/src/dashboard/admin-auth.js';
import type { DashboardOptions } from '../../../controlplane/src/dashboard/dashboard-routes.js';
import { createApp } from '../../../controlplane/src/http/app.js';
import type { VisionModel } from '../../../controlplane/src/model/chat-types.js';
import type { BrowserOperator } from '../../../controlplane/src/operator/browser-operator.js';
import type { TaskRepository } from '../../../controlplane/src/store/task-repository.js';
import type { TakeoverAppDeps } from '../../../controlplane/src/takeover/takeover-app-deps.js';
import {
  createTaskService,
  type TaskService,
} from '../../../controlplane/src/tasks/task-service.js';
import { createPerTaskScriptModel } from '../../support/per-task-script-model.js';
import { silentLogger } from '../../support/silent-logger.js';
import { submit } from '../../support/submit-task.js';
import { createTestTaskDeps } from '../../support/test-task-deps.js';

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
  dataDir: string;
  /** Logs in through the form and returns the `cookie` header value. */
  login(): Promise<string>;
  /** Runs one task to its end and returns its id. */
  runTask(instruction?: string): Promise<string>;
  close(): void;
}

export function createDashboardFixture(
  options: {
    model?: VisionModel;
    operator?: BrowserOperator;
    dashboard?: Partial<DashboardOptions>;
    databasePath?: string;
    /** Builds the takeover deps around the fixture's repository (`/takeover`, Take over). */
    takeover?: (repository: TaskRepository) => TakeoverAppDeps;
  } = {},
): DashboardFixture {
  const test = createTestTaskDeps({
    model: options.model ?? createPerTaskScriptModel(clickThenFinish),
    ...(options.operator ? { operator: options.operator } : {}),
    ...(options.databasePath ? { databasePath: options.databasePath } : {}),
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
    async login() {
      const response = await app.request('/dashboard/login', {
        method: 'POST',
        body: new URLSearchParams({ token: ADMIN_TOKEN, next: '/dashboard' }),
      });
      const cookie = response.headers.get('set-cookie')?.split(';')[0];
      if (response.status !== 303 || !cookie) throw new Error(`login failed: ${response.status}`);
      return cookie;
    },
    async runTask(instruction = 'Press the blue button and report the answer') {
      const { taskId, done } = submit(tasks, { instruction });
      await done;
      return taskId;
    },
    close: test.close,
  };
}
