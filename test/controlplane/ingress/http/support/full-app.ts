// The controlplane app with every optional part configured (auth, approvals, sessions, waits, the
// dashboard and takeover), so every route of the route table is mounted.
import { createReplayModel } from '../../../../../controlplane/src/agent/model/replay-model.js';
import { createBrowserWaitService } from '../../../../../controlplane/src/browser/wait/browser-wait-service.js';
import { createStaticAdminVerifier } from '../../../../../controlplane/src/ingress/dashboard/admin-auth.js';
import { createApp } from '../../../../../controlplane/src/ingress/http/app.js';
import { createTaskService } from '../../../../../controlplane/src/tasks/task-service.js';
import { silentLogger } from '../../../../support/silent-logger.js';
import { createTakeoverFixture } from '../../../../support/takeover-fixture.js';
import { testImages } from '../../../../support/test-images.js';
import { createTestTaskDeps } from '../../../../support/test-task-deps.js';
import { sessionFixture } from '../../../browser/sessions/session-fixture.js';
import { createApprovalsFixture } from '../../../governance/approvals/approvals-fixture.js';
import { createAuthFixture } from '../../../governance/auth/auth-fixture.js';

export async function createFullApp() {
  const auth = await createAuthFixture();
  const test = createTestTaskDeps({ model: createReplayModel(["Action: finished(content='ok')"]) });
  const tasks = createTaskService(test.deps);
  const approvals = createApprovalsFixture();
  const build = () =>
    createApp({
      tasks,
      repository: test.repository,
      logger: silentLogger,
      defaultMaxSteps: 3,
      describe: () => ({ model: { name: 'replay', replay: true }, jail: { url: 'http://x' } }),
      auth: { verifier: auth.verifier },
      // Every request in a test comes from one source (`unknown`): no 429s.
      failures: { limit: 100_000, windowMs: 60_000 },
      approvals: approvals.approvals,
      sessions: sessionFixture().service,
      waits: createBrowserWaitService({
        images: testImages,
        browsers: { get: () => undefined, list: () => [] },
        local: null,
      }),
      dashboard: { verifyAdmin: createStaticAdminVerifier('route-table-admin-token-0123456789') },
      takeover: createTakeoverFixture({ repository: test.repository }).app,
    });
  const close = async () => {
    await tasks.close();
    approvals.close();
    test.close();
  };
  return { app: build(), build, auth, tasks, close };
}
